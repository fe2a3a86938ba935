#!/usr/bin/env python3
"""gpsd fed by UDP at 20x; gpsd SIGKILLed at track second 100, restarted at 115; runwalk run live."""
import os, signal, socket, subprocess, sys, time
repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
import tempfile
work = tempfile.mkdtemp(prefix="runwalk-demo-")
def free(kind):
    s = socket.socket(socket.AF_INET, kind); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
port, udp = free(socket.SOCK_STREAM), free(socket.SOCK_DGRAM)
def gpsd():
    d = subprocess.Popen(["gpsd", "-N", "-n", "-b", "-S", str(port), f"udp://127.0.0.1:{udp}"], stderr=subprocess.DEVNULL)
    for _ in range(200):
        try: socket.create_connection(("127.0.0.1", port), 0.1).close(); return d
        except OSError: time.sleep(0.02)
    raise SystemExit("gpsd did not start")
epochs, cur = [], None
for line in open(f"{repo}/SampleTracks/demo-short.nmea"):
    line = line.strip()
    if not line.startswith("$"): continue
    f = line.split(",")
    if f[0][-3:] in ("RMC", "GGA") and f[1] != cur: cur = f[1]; epochs.append([])
    epochs[-1].append(line)
daemon = gpsd()
print(f"gpsd pid {daemon.pid} on 127.0.0.1:{port}, UDP source {udp}", file=sys.stderr)
run = subprocess.Popen([f"{repo}/.build/debug/runwalk", "run", "1m warmup, 2x(30s run, 30s walk), 1m cooldown",
                        "--gps", f"gpsd://127.0.0.1:{port}", "--speed", "20", "--start", "fix", "--voice", "text", "--json"],
                       stdout=open(os.path.join(work, "gap.json"), "w"))
try:
    time.sleep(0.8)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    t0 = time.monotonic()
    for second, epoch in enumerate(epochs):
        delay = t0 + second / 20 - time.monotonic()
        if delay > 0: time.sleep(delay)
        if second == 100:
            daemon.send_signal(signal.SIGKILL); daemon.wait()
            print(f"--- feeder: track second 100: gpsd (pid {daemon.pid}) killed", file=sys.stderr)
        if second == 115:
            daemon = gpsd()
            print(f"--- feeder: track second 115: gpsd restarted (pid {daemon.pid})", file=sys.stderr)
        for line in epoch:
            sock.sendto((line + "\r\n").encode(), ("127.0.0.1", udp))
        if run.poll() is not None: break
    print("runwalk exit", run.wait(timeout=30), "summary:", os.path.join(work, "gap.json"), file=sys.stderr)
finally:
    if run.poll() is None: run.terminate()
    daemon.terminate(); daemon.wait()
