#!/usr/bin/python3
"""Drives runwalk-app's history and session pages through AT-SPI (inside dbus-run-session, DISPLAY set).

The store (private RUNWALK_DATA_DIR) already holds sessions `runwalk replay` recorded. Opens the
history (the month's calendar with its run days, totals, records), shoots it, opens the newest
session (its planned-versus-actual intervals), shoots it, renames it, exports it as GPX and
deletes the older one (answering the confirmation). With --damaged only the history's banner is
read. Prints one JSON object of what it saw; the Swift test (AppHistoryPageTests) checks it.
Helpers are atspi_app.py's. The app is started and stopped by its PID, also when a step fails.
"""
import argparse, json, re, subprocess, time

from atspi_app import *  # noqa: F403 (the shared helpers)

parser = argparse.ArgumentParser()
parser.add_argument("--app", required=True)
parser.add_argument("--scheme", default="light")
parser.add_argument("--shots", required=True)
parser.add_argument("--damaged", action="store_true")
parser.add_argument("--rename", default="Sunday long run")
args = parser.parse_args()

seen = {"scheme": args.scheme}
setup("history_page.py", seen, args.shots, args.scheme)
RUN_DAY = re.compile(r"^\w+day \d+ \w+: \d+ runs?, ")
INTERVAL = re.compile(r"^\d+\. (Warm-up|Run|Walk|Cool-down) · ")

# Opened on the history page (`--page history`, as a launcher would), not through its tab.
start_app([args.app, "--page", "history", "--voice", "off", "--color-scheme", args.scheme, "--window-size", "360x720"])
try:
    if args.damaged:
        seen["problem"] = value("Store problem")
        shoot("history-damaged")
    else:
        seen["month"] = value("Month shown")
        seen["run_days"] = wait_names(lambda n: n.getRoleName() == "push button" and RUN_DAY.match(n.name or ""), "run days in the calendar")
        seen["month_totals"] = value("Month totals")
        seen["records"] = names(lambda n: n.getRoleName() == "list item" and (n.name or "").startswith(("Fastest", "Longest", "Best")))
        unnamed = names(lambda n: n.getRoleName() in ("push button", "text", "toggle button", "check box") and not (n.name or "").strip())
        seen["unnamed_controls"] = len(unnamed)
        shoot("history-month")
        # Next and previous month: the title follows, the session's month comes back.
        press("Next month")
        seen["next_month"] = wait_value("Month shown", lambda v: v != seen["month"], what="the next month")
        press("Previous month")
        seen["month_again"] = wait_value("Month shown", lambda v: v == seen["month"], what="the month again")
        openers = sorted(names(lambda n: n.getRoleName() == "push button" and (n.name or "").startswith("Open session ")))
        seen["openers"] = openers
        press(openers[-1])
        seen["session_title"] = value("Session title")
        seen["session_distance"] = value("Session distance")
        seen["intervals"] = wait_names(lambda n: n.getRoleName() == "list item" and INTERVAL.match(n.name or ""), "the session's intervals")
        seen["pictures"] = names(lambda n: n.getRoleName() in ("image", "label") and n.name in ("Pace chart", "Distance chart", "Route map"))
        unnamed = names(lambda n: n.getRoleName() in ("push button", "text", "toggle button", "check box") and not (n.name or "").strip())
        seen["unnamed_controls_session"] = len(unnamed)
        shoot("session")
        press("Rename session")
        # The dialog's entry has the keyboard focus: type into it as a user would.
        find(lambda n: n.getRoleName() == "text" and n.name == "Session name", what="the name entry")
        time.sleep(0.5)
        subprocess.run(["xdotool", "key", "ctrl+a", "BackSpace"], check=True, timeout=10)
        subprocess.run(["xdotool", "type", "--delay", "10", args.rename], check=True, timeout=30)
        press("Save")
        seen["renamed_title"] = wait_value("Session title", lambda v: v == args.rename, what="the new name")
        press("Export as GPX")
        seen["export"] = wait_value("Export result", lambda v: v.startswith("Exported to "), what="the export's path")
        # Back to the history, open the older session and delete it (asked first).
        press("Back")
        press(openers[0])
        wait_value("Session title", lambda v: v != args.rename, what="the older session")
        press("Delete session")
        press("Delete")
        deadline = time.time() + 15
        while time.time() < deadline and len(names(lambda n: n.getRoleName() == "push button" and (n.name or "").startswith("Open session "))) != len(openers) - 1:
            time.sleep(0.1)
        seen["openers_after_delete"] = sorted(names(lambda n: n.getRoleName() == "push button" and (n.name or "").startswith("Open session ")))
finally:
    stop_app("app_exit")
print(json.dumps(seen), flush=True)
