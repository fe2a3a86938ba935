#!/usr/bin/python3
"""Drives runwalk-app's history and session pages through AT-SPI (inside dbus-run-session, DISPLAY set).

The store (private RUNWALK_DATA_DIR) already holds sessions `runwalk replay` recorded. Opens the
history (the month's calendar with its run days, totals, records), shoots it, opens the newest
session (its planned-versus-actual intervals), shoots it, renames it, exports it as GPX and
deletes the older one (answering the confirmation). With --damaged only the history's banner is
read. Prints one JSON object of what it saw; the Swift test (AppHistoryPageTests) checks it.
Helpers are live_page.py's. The app is started and stopped by its PID, also when a step fails.
"""
import argparse, json, os, re, subprocess, sys, time

import pyatspi

parser = argparse.ArgumentParser()
parser.add_argument("--app", required=True)
parser.add_argument("--scheme", default="light")
parser.add_argument("--shots", required=True)
parser.add_argument("--damaged", action="store_true")
parser.add_argument("--rename", default="Sunday long run")
args = parser.parse_args()

SIZES = [(360, 720), (1280, 800)]
seen = {"scheme": args.scheme}


def fail(message):
    # What was on screen, to tell a missing control from a misnamed one.
    root = app_root()
    if root is None:
        desktop = pyatspi.Registry.getDesktop(0)
        apps = [safe(lambda: desktop.getChildAtIndex(i).name) for i in range(desktop.childCount)]
        sys.stderr.write("history_page.py: no runwalk-app on the accessibility bus; apps: %r; app running: %s\n"
                         % (apps, app.poll() is None))
    else:
        names = sorted({n.name for n in walk(root) if safe(lambda: n.getRoleName() == "push button")})
        sys.stderr.write("history_page.py: buttons: %s\n" % ", ".join(names))
    print(json.dumps(seen), flush=True)
    sys.stderr.write("history_page.py: " + message + "\n")
    sys.exit(1)


def walk(node):
    """Every accessible under `node`; nodes that go away while walked (a page being rebuilt) are skipped."""
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
        app = desktop.getChildAtIndex(i)
        if app is not None and app.name == "runwalk-app":
            return app
    return None


# GTK 4.8 does not set SHOWING, and the stack keeps every page in the tree: names are unique
# across pages instead (a page's values exist from the app's start, the finished page's once shown).
def showing(node):
    return True


def safe(test):
    try:
        return test()
    except Exception:
        return False


HISTORY_ROW = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d · ")


def find(predicate, timeout=15.0, what="a control"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        root = app_root()
        if root is not None:
            for node in walk(root):
                try:
                    if showing(node) and predicate(node):
                        return node
                except Exception:
                    pass
        time.sleep(0.1)
    fail("timed out waiting for " + what)


def button(name, timeout=15.0):
    # GTK 4.8 names an AdwMessageDialog's response buttons twice over ("Keep running Keep running").
    return find(lambda n: n.getRoleName() == "push button" and n.name in (name, name + " " + name), timeout, "button " + name)


def value(description, timeout=15.0):
    """The text of the label whose accessible description is `description`."""
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


def press(name):
    button(name).queryAction().doAction(0)


def window_id():
    out = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "RunWalk"],
                         capture_output=True, text=True, timeout=10).stdout.split()
    if not out:
        fail("no RunWalk window for xdotool")
    return out[0]


def shoot(page):
    wid = window_id()
    for width, height in SIZES:
        subprocess.run(["xdotool", "windowsize", "--sync", wid, str(width), str(height)], timeout=10)
        # The pages re-lay themselves out (one or two columns) and redraw their pictures at the new width.
        time.sleep(1.5)
        path = os.path.join(args.shots, "%s-%dx%d-%s.png" % (page, width, height, args.scheme))
        subprocess.run(["import", "-window", wid, path], check=True, timeout=20)
    subprocess.run(["xdotool", "windowsize", "--sync", wid, "360", "720"], timeout=10)
    time.sleep(0.4)


def type_into(name, text):
    """Replaces the text of the entry named `name` by typing, as a user would."""
    entry = find(lambda n: n.getRoleName() == "text" and n.name == name, 15, "entry " + name)
    extents = entry.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    wid = window_id()
    subprocess.run(["xdotool", "mousemove", "--window", wid, str(extents.x + 20), str(extents.y + extents.height // 2),
                    "click", "1", "key", "ctrl+a", "BackSpace"], check=True, timeout=10)
    subprocess.run(["xdotool", "type", "--delay", "10", text], check=True, timeout=30)


def hold(node, seconds):
    """Presses the pointer on `node` for `seconds` (AT-SPI actions can only click)."""
    extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    x, y = extents.x + extents.width // 2, extents.y + extents.height // 2
    wid = window_id()
    subprocess.run(["xdotool", "mousemove", "--window", wid, str(x), str(y)], check=True, timeout=10)
    subprocess.run(["xdotool", "mousedown", "1"], check=True, timeout=10)
    time.sleep(seconds)
    subprocess.run(["xdotool", "mouseup", "1"], check=True, timeout=10)




def names(predicate):
    root = app_root()
    return [n.name for n in walk(root) if safe(lambda: predicate(n))] if root is not None else []


def wait_names(predicate, what, timeout=15.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = names(predicate)
        if found:
            return found
        time.sleep(0.1)
    fail("timed out waiting for " + what)


RUN_DAY = re.compile(r"^\w+day \d+ \w+: \d+ runs?, ")
INTERVAL = re.compile(r"^\d+\. (Warm-up|Run|Walk|Cool-down) · ")

os.makedirs(args.shots, exist_ok=True)
pyatspi.Registry.getDesktop(0).childCount
# Opened on the history page (`--page history`, as a launcher would), not through its tab.
app = subprocess.Popen([args.app, "--page", "history", "--voice", "off", "--color-scheme", args.scheme, "--window-size", "360x720"])
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
    app.terminate()
    try:
        seen["app_exit"] = app.wait(timeout=10)
    except subprocess.TimeoutExpired:
        app.kill()
        seen["app_exit"] = app.wait()
print(json.dumps(seen), flush=True)
