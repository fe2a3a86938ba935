#!/usr/bin/python3
"""Drives runwalk-app through AT-SPI for the session service's acceptance checks (issue 29).

Run inside dbus-run-session with DISPLAY set; the environment's private folders are the test's.
Modes:
  finish   the app was started with --workout (next, or a spec): wait for the finished page
  control  while the app's session runs: `runwalk control status --json`, `runwalk control pause`
           (the app shows Paused), SIGUSR1 (the app runs again), a second start from the CLI
  crash    kill -9 the app mid-run, start it again: it says it recovered the run; the store then
           holds no open session
Prints one JSON object of what it saw on standard output; exits 1 with a message when a step
times out. Every app is started and stopped by its PID, also when a step fails.
"""
import argparse, json, os, signal, sqlite3, subprocess, time

from atspi_app import *  # noqa: F403 (the shared helpers)

parser = argparse.ArgumentParser()
parser.add_argument("--app", required=True)
parser.add_argument("--cli", required=True)
parser.add_argument("--track", required=True)
parser.add_argument("--speed", default="10")
parser.add_argument("--workout", default="5m warmup, 8x(90s run, 60s walk), 5m cooldown")
parser.add_argument("--mode", required=True, choices=["finish", "control", "crash"])
parser.add_argument("--shots", help="where screenshots go (the recovery message at 360x720 and 1280x800)")
args = parser.parse_args()

seen = {"mode": args.mode}


def start(extra):
    return start_app([args.app, "--gps", "file:" + args.track, "--speed", args.speed, "--voice", "off",
                      "--window-size", "360x720"] + extra)


def cli(arguments, timeout=20):
    result = subprocess.run([args.cli] + arguments, capture_output=True, text=True, timeout=timeout)
    return {"status": result.returncode, "stdout": result.stdout, "stderr": result.stderr}


def open_sessions():
    path = os.path.join(os.environ["RUNWALK_DATA_DIR"], "runwalk.sqlite")
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        return db.execute("SELECT count(*) FROM sessions WHERE state = 'recording'").fetchone()[0]
    finally:
        db.close()


# Screenshots' names without a colour scheme (the app follows the system's).
setup("app_session.py", seen, args.shots, None)
try:
    if args.mode == "finish":
        app = start(["--workout", args.workout])
        seen["phase"] = wait_value("Phase", lambda v: v != "", timeout=60, what="the live page")
        seen["result"] = value("Result", timeout=120)
        seen["finished_distance"] = value("Total distance")
        # The toast's label, not the start page's plan card ("Week 1 · Day 1 of …"), which GTK 4.8
        # keeps in the tree while hidden.
        note = find(lambda n: n.getRoleName() == "label" and (n.name or "").startswith("Week ")
                    and (" done" in n.name or " cut short" in n.name), 10, "the plan day's note") \
            if args.workout == "next" else None
        seen["note"] = note.name if note else None
    elif args.mode == "control":
        app = start(["--workout", args.workout])
        wait_value("Distance", lambda v: v != "0.00 km", timeout=60, what="some distance")
        seen["status"] = cli(["control", "status", "--json"])
        seen["pause"] = cli(["control", "pause"])
        seen["paused_number"] = wait_value("Phase number", lambda v: "Paused" in v, what="the app paused by `runwalk control pause`")
        os.kill(app.pid, signal.SIGUSR1)
        seen["resumed_number"] = wait_value("Phase number", lambda v: "Paused" not in v, what="SIGUSR1 resuming the app")
        os.kill(app.pid, signal.SIGUSR1)
        seen["paused_again_number"] = wait_value("Phase number", lambda v: "Paused" in v, what="SIGUSR1 pausing the app")
        seen["second_start"] = cli(["run", "5m walk", "--gps", "file:" + args.track, "--speed", "50", "--voice", "off", "--json"])
        seen["app_pid"] = app.pid
        seen["app_alive"] = app.poll() is None
    else:
        app = start(["--workout", args.workout])
        wait_value("Distance", lambda v: v not in ("0.00 km", "0.01 km"), timeout=60, what="some distance")
        time.sleep(1.5)
        os.kill(app.pid, signal.SIGKILL)
        app.wait()
        seen["open_before"] = open_sessions()
        start([])
        toast = find(lambda n: n.getRoleName() == "label" and (n.name or "").startswith("Recovered your run of "),
                     30, "the recovery message")
        seen["recovered"] = toast.name
        shoot("recovered")
        seen["open_after"] = open_sessions()
finally:
    stop_all()
print(json.dumps(seen), flush=True)
