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
import argparse, json, os, re, subprocess, sys, time

import pyatspi

parser = argparse.ArgumentParser()
parser.add_argument("--app", required=True)
parser.add_argument("--track", required=True)
parser.add_argument("--speed", default="20")
parser.add_argument("--scheme", default="light")
parser.add_argument("--shots", required=True)
parser.add_argument("--opened", help="where the test's stand-in browser writes the URI it was given")
args = parser.parse_args()

SIZES = [(360, 720), (1280, 800)]
seen = {"scheme": args.scheme}


def fail(message):
    # What was on screen, to tell a missing control from a misnamed one.
    root = app_root()
    if root is None:
        desktop = pyatspi.Registry.getDesktop(0)
        apps = [safe(lambda: desktop.getChildAtIndex(i).name) for i in range(desktop.childCount)]
        sys.stderr.write("live_page.py: no runwalk-app on the accessibility bus; apps: %r; app running: %s\n"
                         % (apps, app.poll() is None))
    else:
        names = sorted({n.name for n in walk(root) if safe(lambda: n.getRoleName() == "push button")})
        sys.stderr.write("live_page.py: buttons: %s\n" % ", ".join(names))
    print(json.dumps(seen), flush=True)
    sys.stderr.write("live_page.py: " + message + "\n")
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
        # Pages re-lay themselves out on a frame-clock tick (one or two columns); without a
        # compositor GTK's frames come slowly after a resize.
        time.sleep(1.5)
        path = os.path.join(args.shots, "%s-%dx%d-%s.png" % (page, width, height, args.scheme))
        subprocess.run(["import", "-window", wid, path], check=True, timeout=20)
    subprocess.run(["xdotool", "windowsize", "--sync", wid, "360", "720"], timeout=10)
    time.sleep(0.4)


def show_page(title):
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


os.makedirs(args.shots, exist_ok=True)
# The accessibility bus and registry up before the app asks for them: an app that starts while
# the bus is still being activated can come up without accessibility (seen: no app on the bus).
pyatspi.Registry.getDesktop(0).childCount
app = subprocess.Popen([args.app, "--gps", "file:" + args.track, "--speed", args.speed, "--voice", "off",
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
    app.terminate()
    try:
        seen["app_exit"] = app.wait(timeout=10)
    except subprocess.TimeoutExpired:
        app.kill()
        seen["app_exit"] = app.wait()
print(json.dumps(seen), flush=True)
