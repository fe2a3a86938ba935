#!/usr/bin/python3
"""Drives runwalk-app's plan card and plans page through AT-SPI (inside dbus-run-session, DISPLAY set).

The Swift test (AppPlansPageTests) has started couch to 5K with `runwalk plan start c25k` and
imported a plan "hills". This script:
1. opens the app (start page): reads the plan card, starts the plan day from it, holds Stop;
2. opens it again with --page plans: reads the weeks, presses Skip, Repeat and Stop (and the
   dialog's "Stop the plan"), picks Galloway with Sunday added and starts it; then stops it with
   the CLI, picks "hills", removes its file and presses Start (a message, no crash).
After each step it asks `runwalk plan status --json` what the CLI sees. Screenshots go to --shots.
Prints one JSON object of what it saw; exits 1 with a message when a step times out.
"""
import argparse, json, os, subprocess, time

from atspi_support import Driver

parser = argparse.ArgumentParser()
parser.add_argument("--app", required=True)
parser.add_argument("--cli", required=True)
parser.add_argument("--track", required=True)
parser.add_argument("--scheme", default="light")
parser.add_argument("--shots", required=True)
parser.add_argument("--imported", required=True, help="the imported plan's file, removed before its Start")
args = parser.parse_args()

seen = {"scheme": args.scheme}
ui = Driver(seen, args.shots, args.scheme)
common = ["--gps", "file:" + args.track, "--speed", "10", "--voice", "off", "--color-scheme", args.scheme, "--window-size", "360x720"]


def status(key):
    out = subprocess.run([args.cli, "plan", "status", "--json"], capture_output=True, text=True, timeout=60)
    seen[key] = json.loads(out.stdout) if out.returncode == 0 else {"error": out.stderr}


try:
    # 1. The start page: today's plan day first, started with one tap.
    ui.launch([args.app] + common)
    ui.control("push button", "Start plan day", timeout=60)
    seen["plan_day"] = ui.value("Plan day")
    seen["plan_due"] = ui.value("Plan day due")
    seen["plan_detail"] = ui.value("Plan day workout")
    ui.shoot("start-plan")
    ui.press("Start plan day")
    seen["plan_phase"] = ui.wait_value("Phase", lambda v: v == "Warm-up", what="the plan day's warm-up")
    seen["plan_phase_number"] = ui.value("Phase number")
    ui.hold(ui.control("push button", "Stop"), 2.0)
    seen["plan_result"] = ui.value("Result", timeout=20)
    ui.press("Done")
    seen["plan_day_after"] = ui.wait_value("Plan day last try", lambda v: v != "", what="the short try told")
    ui.quit("app_exit_start")
    status("status_after_run")

    # 2. The plans page.
    ui.launch([args.app, "--page", "plans"] + common)
    seen["followed"] = ui.value("Plan followed", timeout=60)
    seen["done"] = ui.value("Plan done")
    seen["weeks"] = ui.names("list item", lambda name: name.startswith("Week "))
    ui.shoot("plans")
    ui.press("Skip plan day")
    seen["done_after_skip"] = ui.wait_value("Plan done", lambda v: "skipped" in v, what="the day skipped")
    status("status_after_skip")
    ui.press("Repeat week")
    seen["done_after_repeat"] = ui.wait_value("Plan done", lambda v: "skipped" not in v, what="the week repeated")
    status("status_after_repeat")
    ui.press("Stop plan")
    ui.press("Stop the plan")
    seen["followed_after_stop"] = ui.wait_value("Plan followed", lambda v: v.startswith("No plan"), what="the plan stopped")
    status("status_after_stop")
    ui.shoot("plans-none")
    ui.press_any("Galloway beginner 5K", ("radio button", "check box"))
    ui.press_any("Sunday", ("toggle button", "push button"))
    ui.press("Start plan")
    seen["followed_after_start"] = ui.wait_value("Plan followed", lambda v: not v.startswith("No plan"), what="the plan started")
    status("status_after_start")

    # 3. A plan whose file went missing: a message, never a crash.
    ui.quit("app_exit_plans")
    subprocess.run([args.cli, "plan", "stop"], capture_output=True, timeout=60)
    ui.launch([args.app, "--page", "plans"] + common)
    ui.wait_value("Plan followed", lambda v: v.startswith("No plan"), what="the CLI's stop seen")
    ui.press_any("Hill repeats", ("radio button", "check box"))
    os.remove(args.imported)
    ui.press("Start plan")
    seen["missing_note"] = ui.wait_value("Start plan note", lambda v: "no such file" in v, what="the missing file told")
    status("status_after_missing")
    seen["still_running"] = ui.app.poll() is None
    ui.quit("app_exit_missing")
finally:
    if ui.app is not None:
        ui.app.kill()
        ui.app.wait()
print(json.dumps(seen), flush=True)
