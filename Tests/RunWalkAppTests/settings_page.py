#!/usr/bin/python3
"""Drives runwalk-app's settings and workouts pages through AT-SPI (inside dbus-run-session, DISPLAY set).

The config folder (RUNWALK_CONFIG_DIR) holds a settings.conf and a workouts.txt with the runner's
comments. Opens Settings by its page tab, flips Auto-pause, types a track file as the
GPS source; opens Workouts, types a spec with a mistake (its message is read), then a good one and
adds it; breaks settings.conf by hand and opens Settings again (the problem named, the file left
alone). Screenshots at 360x720 and 1280x800 go to --shots. Prints one JSON object of what it saw;
the Swift test (AppSettingsPageTests) checks it and the files. The app is stopped by its PID.
"""
import argparse, json, os, subprocess, time

import pyatspi

from atspi_app import *  # noqa: F403 (the shared helpers)

parser = argparse.ArgumentParser()
parser.add_argument("--app", required=True)
parser.add_argument("--track", required=True)
parser.add_argument("--scheme", default="light")
parser.add_argument("--shots", required=True)
args = parser.parse_args()

CONFIG = os.environ["RUNWALK_CONFIG_DIR"]
SETTINGS = os.path.join(CONFIG, "settings.conf")
WORKOUTS = os.path.join(CONFIG, "workouts.txt")
seen = {"scheme": args.scheme}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


setup("settings_page.py", seen, args.shots, args.scheme)
start_app([args.app, "--voice", "off", "--color-scheme", args.scheme, "--window-size", "360x720"])
try:
    find(lambda n: n.getRoleName() == "page tab" and n.name == "Settings", 60, "the page tabs")
    show_page("Settings")
    # Auto-pause on: the line changes in place, its comment kept.
    switch = find(lambda n: n.name == "Auto-pause" and n.getRoleName() in ("switch", "toggle button", "check box"), what="the Auto-pause switch")
    switch.queryAction().doAction(0)
    seen["after_switch"] = wait_for(lambda: "auto_pause = on" in read(SETTINGS) and read(SETTINGS), "auto_pause = on in settings.conf")
    # A track file as the GPS source (settings.conf names a file source already: its field is shown).
    # The window is made tall enough for the GPS group to be on screen, where a click can reach it.
    subprocess.run(["xdotool", "windowsize", "--sync", window_id(), "1280", "1400"], timeout=10)
    time.sleep(0.8)
    type_into("Track file", args.track, enter=True)
    seen["after_gps"] = wait_for(lambda: ("gps = file:" + args.track) in read(SETTINGS) and read(SETTINGS), "gps = file:TRACK in settings.conf")
    # The whole page at once (the GPS and heart-rate groups are below the fold at 1280x800).
    subprocess.run(["import", "-window", window_id(), os.path.join(args.shots, "settings-all-1280x1400-%s.png" % args.scheme)],
                   check=True, timeout=20)
    shoot("settings")

    # Workouts: the spec is checked as typed, its mistake named with the column; a good one is added.
    show_page("Workouts")
    type_into("New workout name", "hills")
    type_into("New workout spec", "5m warmup, 4x(2m jgo)")
    seen["spec_problem"] = wait_for(lambda: (lambda v: "jgo" in v and v)(value("Workout spec problem")), "the spec problem")
    shoot("workouts-error")
    type_into("New workout spec", "5m warmup, 4x(2m run, 2m walk), 5m cooldown")
    wait_for(lambda: value("New workout totals").startswith("10 phases"), "the spec accepted")
    add = find(lambda n: n.getRoleName() == "push button" and n.name == "Add workout", what="Add workout")
    deadline = time.time() + 15
    while not safe(lambda: add.getState().contains(pyatspi.STATE_SENSITIVE)):
        if time.time() > deadline:
            fields = [safe(lambda: find(lambda n: n.getRoleName() == "text" and n.name == f, 2).queryText().getText(0, -1))
                      for f in ("New workout name", "New workout spec")]
            fail("timed out waiting for Add workout enabled (fields: %r)" % fields)
        time.sleep(0.1)
    press("Add workout")
    seen["workouts_after_add"] = wait_for(lambda: "hills = " in read(WORKOUTS) and read(WORKOUTS), "hills in workouts.txt")
    find(lambda n: n.getRoleName() == "push button" and n.name == "Delete hills", what="the new workout's row")
    shoot("workouts")

    # A half-edited settings.conf: the page names the file and line, changes nothing.
    broken = read(SETTINGS).replace("units = metric", "units = met", 1)
    with open(SETTINGS, "w", encoding="utf-8") as f:
        f.write(broken)
    seen["broken_before"] = broken
    show_page("Settings")
    problem = find(lambda n: n.getRoleName() == "label" and "settings.conf: line" in n.name, what="the settings problem")
    seen["problem"] = problem.name

    # The page was left scrolled down at the GPS rows: the problem must come into view, not
    # sit above the fold where nobody looks.
    def problem_in_view():
        box = problem.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        height = app_root().getChildAtIndex(0).queryComponent().getExtents(pyatspi.WINDOW_COORDS).height
        seen["problem_box"] = [box.y, box.height, height]
        return 0 <= box.y and box.y + box.height <= height and box.height > 0
    wait_for(lambda: safe(problem_in_view), "the settings problem scrolled into view", timeout=5)
    shoot("settings-broken")
    seen["broken_after"] = read(SETTINGS)
finally:
    stop_app("app_exit")
print(json.dumps(seen), flush=True)
