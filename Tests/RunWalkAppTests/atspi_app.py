"""The AT-SPI and xdotool helpers the app test scripts share (live_page.py, history_page.py):
finding controls by role and name or description, pressing, typing, holding, page tabs, and
screenshots at 360x720 and 1280x800. A script calls `setup(...)` first, and sets `state.app` to
the app it started, so that `fail` can say what was on screen and print what was seen so far.
"""
import json, os, subprocess, sys, time

import pyatspi

SIZES = [(360, 720), (1280, 800)]


class State:
    name = "atspi_app.py"
    seen = {}
    shots = "."
    scheme = "light"
    app = None


state = State()


def setup(name, seen, shots, scheme):
    state.name, state.seen, state.shots, state.scheme = name, seen, shots, scheme


def fail(message):
    # What was on screen, to tell a missing control from a misnamed one.
    root = app_root()
    if root is None:
        desktop = pyatspi.Registry.getDesktop(0)
        apps = [safe(lambda: desktop.getChildAtIndex(i).name) for i in range(desktop.childCount)]
        sys.stderr.write("%s: no runwalk-app on the accessibility bus; apps: %r; app running: %s\n"
                         % (state.name, apps, state.app is not None and state.app.poll() is None))
    else:
        names = sorted({n.name for n in walk(root) if safe(lambda: n.getRoleName() == "push button")})
        sys.stderr.write("%s: buttons: %s\n" % (state.name, ", ".join(names)))
    print(json.dumps(state.seen), flush=True)
    sys.stderr.write(state.name + ": " + message + "\n")
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
        path = os.path.join(state.shots, "%s-%dx%d-%s.png" % (page, width, height, state.scheme))
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
