#!/usr/bin/python3
"""Drives runwalk-app through AT-SPI (run inside dbus-run-session, with DISPLAY set).

Starts the app on the start page with a track file, presses Start, reads the live page
(phase, time left, distance), presses Pause (paused state, frozen time), Skip (the next
phase), Resume, holds Stop (the pointer is held down with xdotool: a click does not stop),
reads the finished page, then opens the history and the session from it. Screenshots of every
page at 360x720 and 1280x800 go to --shots. Prints one JSON object of what it saw on standard
output; the Swift test (RunWalkAppTests) checks it. Exits 1 with a message when a step times out.
The app is started and stopped by its PID, also when a step fails.
"""
import argparse, json, os, re, subprocess, time

import pyatspi

from atspi_app import *  # noqa: F403 (the shared helpers)

parser = argparse.ArgumentParser()
parser.add_argument("--app", required=True)
parser.add_argument("--track", required=True)
parser.add_argument("--speed", default="20")
parser.add_argument("--scheme", default="light")
parser.add_argument("--shots", required=True)
parser.add_argument("--opened", help="where the test's stand-in browser writes the URI it was given")
args = parser.parse_args()

seen = {"scheme": args.scheme}
setup("live_page.py", seen, args.shots, args.scheme)
HISTORY_ROW = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d · ")

start_app([args.app, "--gps", "file:" + args.track, "--speed", args.speed, "--voice", "off",
           "--color-scheme", args.scheme, "--window-size", "360x720"])
try:
    # Start page: the builder's default workout is in the spec field.
    button("Start", timeout=60)
    seen["start_totals"] = value("Workout totals")
    seen["start_gps"] = wait_value("GPS state", lambda v: v.startswith("GPS fix"), what="a GPS fix on the start page")
    shoot("start")

    # The spec is checked as it is typed: the wrong part is named (and underlined).
    good = "5m warmup, 8x(90s run, 1m walk), 5m cooldown"  # the builder's default, as shown
    type_into("Workout spec", "5m warmup, 90s jgo")
    seen["spec_problem"] = wait_value("Workout problem", lambda v: "jgo" in v, what="the spec problem")
    shoot("start-error")
    type_into("Workout spec", good)
    seen["spec_totals_again"] = wait_value("Workout totals", lambda v: v.startswith("18 phases"), what="the spec accepted again")
    press("Start")

    # Live page, warm-up running.
    seen["phase"] = wait_value("Phase", lambda v: v == "Warm-up", what="the warm-up")
    seen["time_left"] = value("Time left")
    seen["phase_number"] = value("Phase number")
    wait_value("Distance", lambda v: v != "0.00 km", what="some distance")
    seen["distance"] = value("Distance")
    shoot("live")

    # A phone turned on its side (720x360): the clock, Pause, Skip and Stop all on screen, no scrolling.
    wid = window_id()
    subprocess.run(["xdotool", "windowsize", "--sync", wid, "720", "360"], timeout=10)
    time.sleep(1.0)
    window_height = app_root().getChildAtIndex(0).queryComponent().getExtents(pyatspi.WINDOW_COORDS).height
    seen["landscape_outside"] = []
    for name in ["Time left", "Pause", "Skip", "Stop"]:
        # Buttons go by their name, labels by their description (their name is their text).
        node = find(lambda n, name=name: n.getRoleName() in ("push button", "label") and name in (n.name, n.description), what=name)
        box = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        if box.y < 0 or box.y + box.height > window_height or box.height <= 0:
            seen["landscape_outside"].append("%s at y %d..%d of %d" % (name, box.y, box.y + box.height, window_height))
    subprocess.run(["import", "-window", wid, os.path.join(args.shots, "live-720x360-%s.png" % args.scheme)], check=True, timeout=20)
    subprocess.run(["xdotool", "windowsize", "--sync", wid, "360", "720"], timeout=10)
    time.sleep(0.4)

    # Pause: the button says Resume, the page says Paused, the time stands still.
    press("Pause")
    button("Resume")
    seen["paused_phase_number"] = wait_value("Phase number", lambda v: "Paused" in v, what="the paused state")
    seen["paused_time_1"] = value("Time left")
    time.sleep(1.5)
    seen["paused_time_2"] = value("Time left")
    shoot("paused")

    # Skip (while paused, so nothing else moves): the next phase.
    press("Skip")
    seen["after_skip_phase"] = wait_value("Phase", lambda v: v != "Warm-up", what="the phase after a skip")
    seen["after_skip_number"] = value("Phase number")
    # The engine starts the next phase running: resume only if it stayed paused.
    if "Paused" in seen["after_skip_number"]:
        press("Resume")
    button("Pause")

    # Closing the window while running asks first; "Keep running" keeps it.
    press("Close")
    press("Keep running")
    seen["after_close_phase"] = value("Phase")

    # A click on Stop does not stop; a hold does.
    press("Stop")
    time.sleep(0.5)
    seen["after_click_phase"] = value("Phase")
    hold(button("Stop"), 2.0)
    seen["result"] = value("Result", timeout=20)
    seen["finished_distance"] = value("Total distance")
    seen["finished_time"] = value("Total time")
    shoot("finished")

    # Open report: the HTML goes to the default browser (the test's stand-in writes the URI down).
    if args.opened:
        press("Open report")
        deadline = time.time() + 15
        while time.time() < deadline and not (os.path.exists(args.opened) and os.path.getsize(args.opened) > 0):
            time.sleep(0.1)
        seen["opened"] = open(args.opened).read().strip() if os.path.exists(args.opened) else ""

    # History: the session is listed; opening it shows its session page.
    press("Done")
    show_page("History")
    rows = []
    deadline = time.time() + 10
    while not rows and time.time() < deadline:
        root = app_root()
        rows = [n.name for n in walk(root) if safe(lambda: n.getRoleName() == "list item" and HISTORY_ROW.match(n.name or ""))]
        time.sleep(0.1)
    seen["history_rows"] = rows
    shoot("history")
    opener = find(lambda n: n.getRoleName() == "push button" and (n.name or "").startswith("Open session "), what="a history row's Open button")
    opener.queryAction().doAction(0)
    seen["reopened_distance"] = value("Session distance")
finally:
    stop_app("app_exit")
print(json.dumps(seen), flush=True)
