#!/usr/bin/env python3
"""socat pty pair; NMEA written into one end at 9600 baud (5x real time); runwalk reads the other; socat killed at track second 40."""
import os, subprocess, sys, time, termios, tty
repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
import tempfile
work = tempfile.mkdtemp(prefix="runwalk-demo-")
a, b = os.path.join(work, "gps-receiver"), os.path.join(work, "gps-ttyUSB0")
socat = subprocess.Popen(["socat", f"pty,raw,echo=0,link={a}", f"pty,raw,echo=0,link={b}"])
while not (os.path.exists(a) and os.path.exists(b)): time.sleep(0.02)
print(f"socat pid {socat.pid}: {a} <-> {b}", file=sys.stderr)
run = subprocess.Popen([f"{repo}/.build/debug/runwalk", "run", "30s run, 30s walk", "--gps", f"serial:{b}@9600",
                        "--speed", "5", "--start", "fix", "--voice", "text", "--json"], stdout=open(os.path.join(work, "serial.json"), "w"))
time.sleep(0.8)
fd = os.open(a, os.O_WRONLY | os.O_NOCTTY)
attrs = termios.tcgetattr(fd); attrs[4] = attrs[5] = termios.B9600; termios.tcsetattr(fd, termios.TCSANOW, attrs)
epochs, cur = [], None
for line in open(f"{repo}/SampleTracks/demo-short.nmea"):
    line = line.strip()
    if not line.startswith("$"): continue
    f = line.split(",")
    if f[0][-3:] in ("RMC", "GGA") and f[1] != cur: cur = f[1]; epochs.append([])
    epochs[-1].append(line)
t0 = time.monotonic()
for second, epoch in enumerate(epochs[:70]):
    delay = t0 + second / 5 - time.monotonic()
    if delay > 0: time.sleep(delay)
    if second == 40:
        socat.terminate(); socat.wait()
        print("--- writer: track second 40: socat killed (receiver unplugged)", file=sys.stderr)
        break
    data = "".join(l + "\r\n" for l in epoch).encode()
    os.write(fd, data)
    time.sleep(len(data) * 10 / 9600)  # the UART's own pace
print("runwalk exit", run.wait(timeout=60), "summary:", os.path.join(work, "serial.json"), file=sys.stderr)
