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
import argparse, json, os, signal, sqlite3, subprocess, sys, time

import pyatspi

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
apps = []


def fail(message):
    print(json.dumps(seen), flush=True)
    sys.stderr.write("app_session.py: " + message + "\n")
    stop_all()
    sys.exit(1)


def walk(node):
    yield node
    try:
        children = [node.getChildAtIndex(i) for i in range(node.childCount)]
    except Exception:
        return
    for child in children:
        if child is not None:
            yield from walk(child)


def app_root():
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        node = desktop.getChildAtIndex(i)
        if node is not None and node.name == "runwalk-app":
            return node
    return None


def find(predicate, timeout=15.0, what="a control"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        root = app_root()
        if root is not None:
            for node in walk(root):
                try:
                    if predicate(node):
                        return node
                except Exception:
                    pass
        time.sleep(0.1)
    fail("timed out waiting for " + what)


def value(description, timeout=15.0):
    return find(lambda n: n.getRoleName() == "label" and n.description == description, timeout, "label " + description).name


def wait_value(description, test, timeout=15.0, what=None):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        last = value(description, timeout)
        if test(last):
            return last
        time.sleep(0.05)
    fail("timed out waiting for %s (last %r)" % (what or description, last))


def shoot(name):
    if not args.shots:
        return
    os.makedirs(args.shots, exist_ok=True)
    out = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "RunWalk"],
                         capture_output=True, text=True, timeout=10).stdout.split()
    if not out:
        fail("no RunWalk window for xdotool")
    for width, height in [(360, 720), (1280, 800)]:
        subprocess.run(["xdotool", "windowsize", "--sync", out[0], str(width), str(height)], timeout=10)
        time.sleep(0.6)
        subprocess.run(["import", "-window", out[0], os.path.join(args.shots, "%s-%dx%d.png" % (name, width, height))],
                       check=True, timeout=20)


def start_app(extra):
    app = subprocess.Popen([args.app, "--gps", "file:" + args.track, "--speed", args.speed, "--voice", "off",
                            "--window-size", "360x720"] + extra)
    apps.append(app)
    return app


def stop_all():
    for app in apps:
        if app.poll() is None:
            app.terminate()
            try:
                app.wait(timeout=10)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait()


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


pyatspi.Registry.getDesktop(0).childCount
try:
    if args.mode == "finish":
        app = start_app(["--workout", args.workout])
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
        app = start_app(["--workout", args.workout])
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
        app = start_app(["--workout", args.workout])
        wait_value("Distance", lambda v: v not in ("0.00 km", "0.01 km"), timeout=60, what="some distance")
        time.sleep(1.5)
        os.kill(app.pid, signal.SIGKILL)
        app.wait()
        seen["open_before"] = open_sessions()
        start_app([])
        toast = find(lambda n: n.getRoleName() == "label" and (n.name or "").startswith("Recovered your run of "),
                     30, "the recovery message")
        seen["recovered"] = toast.name
        shoot("recovered")
        seen["open_after"] = open_sessions()
finally:
    stop_all()
print(json.dumps(seen), flush=True)
