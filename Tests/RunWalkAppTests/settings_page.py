#!/usr/bin/python3
"""Drives runwalk-app's settings and workouts pages through AT-SPI (inside dbus-run-session, DISPLAY set).

The config folder (RUNWALK_CONFIG_DIR) holds a settings.conf and a workouts.txt with the runner's
comments. Opens Settings by its page tab, flips Auto-pause, types a track file as the
GPS source; opens Workouts, types a spec with a mistake (its message is read), then a good one and
adds it; breaks settings.conf by hand and opens Settings again (the problem named, the file left
alone). Screenshots at 360x720 and 1280x800 go to --shots. Prints one JSON object of what it saw;
the Swift test (AppSettingsPageTests) checks it and the files. The app is stopped by its PID.
"""
import argparse, json, os, subprocess, sys, time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

parser = argparse.ArgumentParser()
parser.add_argument("--app", required=True)
parser.add_argument("--track", required=True)
parser.add_argument("--scheme", default="light")
parser.add_argument("--shots", required=True)
args = parser.parse_args()

SIZES = [(360, 720), (1280, 800)]
CONFIG = os.environ["RUNWALK_CONFIG_DIR"]
SETTINGS = os.path.join(CONFIG, "settings.conf")
WORKOUTS = os.path.join(CONFIG, "workouts.txt")
seen = {"scheme": args.scheme}


def fail(message):
    root = app_root()
    if root is not None:
        names = sorted({"%s:%s" % (safe(lambda: n.getRoleName()), n.name) for n in walk(root) if safe(lambda: n.name)})
        sys.stderr.write("settings_page.py: named nodes: %s\n" % ", ".join(names))
    print(json.dumps(seen), flush=True)
    sys.stderr.write("settings_page.py: " + message + "\n")
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
        app = desktop.getChildAtIndex(i)
        if app is not None and app.name == "runwalk-app":
            return app
    return None


def safe(test):
    try:
        return test()
    except Exception:
        return False


def find(predicate, timeout=15.0, what="a control"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        root = app_root()
        if root is not None:
            for node in walk(root):
                if safe(lambda: predicate(node)):
                    return node
        time.sleep(0.1)
    fail("timed out waiting for " + what)


def press(name, role="push button", timeout=15.0):
    find(lambda n: n.getRoleName() == role and n.name == name, timeout, role + " " + name).queryAction().doAction(0)


def value(description, timeout=15.0):
    return find(lambda n: n.getRoleName() == "label" and n.description == description, timeout, "label " + description).name


def wait_for(test, what, timeout=15.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        result = safe(test)
        if result:
            return result
        time.sleep(0.1)
    fail("timed out waiting for " + what)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


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
        time.sleep(0.8)
        path = os.path.join(args.shots, "%s-%dx%d-%s.png" % (page, width, height, args.scheme))
        subprocess.run(["import", "-window", wid, path], check=True, timeout=20)
    subprocess.run(["xdotool", "windowsize", "--sync", wid, "360", "720"], timeout=10)
    time.sleep(0.4)


def type_into(name, text, enter=False):
    """Replaces the text of the field named `name` by typing, as a user would: a click in the
    field (it must be on screen), select all, type, and Enter when asked."""
    entry = find(lambda n: n.getRoleName() == "text" and n.name == name, 15, "entry " + name)
    extents = entry.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    wid = window_id()
    subprocess.run(["xdotool", "mousemove", "--window", wid, str(extents.x + 20), str(extents.y + extents.height // 2),
                    "click", "1", "key", "ctrl+a", "BackSpace"], check=True, timeout=10)
    subprocess.run(["xdotool", "type", "--delay", "10", text], check=True, timeout=30)
    # Every key handled before going on, where the field tells its text (AdwEntryRow's does not
    # in GTK 4.8: what it was given is checked in the file instead).
    deadline = time.time() + 5
    while time.time() < deadline and safe(lambda: entry.queryText().getText(0, -1)) != text:
        time.sleep(0.1)
    if enter:
        subprocess.run(["xdotool", "key", "Return"], check=True, timeout=10)


def open_page(title):
    """Shows a page by its switcher tab (the bottom bar's on a phone); GTK 4.8 gives page tabs
    no AT-SPI action, so the tab is clicked where it is."""
    find(lambda n: n.getRoleName() == "page tab" and n.name == title, 15, "page tab " + title)
    tabs = [n for n in walk(app_root()) if safe(lambda: n.getRoleName() == "page tab" and n.name == title)]
    shown = [t for t in tabs if safe(lambda: t.queryComponent().getExtents(pyatspi.WINDOW_COORDS).width > 0)]
    if not shown:
        fail("no page tab %s on screen" % title)
    extents = max(shown, key=lambda t: t.queryComponent().getExtents(pyatspi.WINDOW_COORDS).y).queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    subprocess.run(["xdotool", "mousemove", "--window", window_id(), str(extents.x + extents.width // 2),
                    str(extents.y + extents.height // 2), "click", "1"], check=True, timeout=10)
    # The page's switch is animated: a click sent meanwhile may land on the page going away.
    time.sleep(1.0)


os.makedirs(args.shots, exist_ok=True)
pyatspi.Registry.getDesktop(0).childCount
app = subprocess.Popen([args.app, "--voice", "off", "--color-scheme", args.scheme, "--window-size", "360x720"])
try:
    find(lambda n: n.getRoleName() == "page tab" and n.name == "Settings", 60, "the page tabs")
    open_page("Settings")
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
    open_page("Workouts")
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
    open_page("Settings")
    problem = find(lambda n: n.getRoleName() == "label" and "settings.conf: line" in n.name, what="the settings problem")
    seen["problem"] = problem.name
    shoot("settings-broken")
    seen["broken_after"] = read(SETTINGS)
finally:
    app.terminate()
    try:
        seen["app_exit"] = app.wait(timeout=10)
    except subprocess.TimeoutExpired:
        app.kill()
        seen["app_exit"] = app.wait()
print(json.dumps(seen), flush=True)
