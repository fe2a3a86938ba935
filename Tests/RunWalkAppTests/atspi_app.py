"""The AT-SPI and xdotool helpers the app test scripts share (live_page.py, history_page.py,
settings_page.py, app_session.py, plans/plans_page.py): starting and stopping the app by its PID,
finding controls by role and name or description, waiting with a deadline, pressing, clicking,
typing, holding, page tabs, and screenshots at 360x720 and 1280x800. A script calls
`setup(...)` first and starts the app with `start_app`, so that `fail` can say what was on
screen and print what was seen so far; its `finally` stops what it started (`stop_app`,
`stop_all`), also when a step fails.
"""
import json, os, subprocess, sys, time

import pyatspi

SIZES = [(360, 720), (1280, 800)]


class State:
    name = "atspi_app.py"
    seen = {}
    shots = None
    scheme = None
    settle = 1.5
    app = None
    apps = []


state = State()

# The roles `fail` lists the named nodes of.
CONTROLS = ("push button", "toggle button", "check box", "radio button", "switch", "page tab", "text", "label")


def setup(name, seen, shots, scheme, settle=1.5):
    """`shots`: the screenshots' folder (None: `shoot` takes none); `scheme`: the colour scheme
    the shots' names end in (None: no ending); `settle`: seconds a page is given to lay itself
    out after a resize before it is shot."""
    state.name, state.seen, state.shots, state.scheme, state.settle = name, seen, shots, scheme, settle
    if shots:
        os.makedirs(shots, exist_ok=True)
    # The accessibility bus and registry up before the app asks for them: an app that starts while
    # the bus is still being activated can come up without accessibility (seen: no app on the bus).
    pyatspi.Registry.getDesktop(0).childCount


def start_app(argv):
    """Starts the app; `state.app` is the newest, and `stop_all` stops every one started."""
    state.app = subprocess.Popen(argv)
    state.apps.append(state.app)
    return state.app


def stop_app(key=None, app=None):
    """Stops `app` (the newest) by its PID if it still runs: SIGTERM, SIGKILL after 10 s, then a
    moment for its window to leave X before another app's is looked for. Its exit status goes in
    `seen[key]`."""
    app = app or state.app
    if app is None:
        return
    if app.poll() is None:
        app.terminate()
        try:
            app.wait(timeout=10)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait()
        time.sleep(0.5)
    if key:
        state.seen[key] = app.returncode


def stop_all():
    for app in state.apps:
        stop_app(app=app)


def fail(message):
    # What was on screen, to tell a missing control from a misnamed one.
    root = app_root()
    if root is None:
        desktop = pyatspi.Registry.getDesktop(0)
        apps = [safe(lambda: desktop.getChildAtIndex(i).name) for i in range(desktop.childCount)]
        sys.stderr.write("%s: no runwalk-app on the accessibility bus; apps: %r; app running: %s\n"
                         % (state.name, apps, state.app is not None and state.app.poll() is None))
    else:
        names = sorted({"%s:%s" % (n.getRoleName(), n.name) for n in walk(root)
                        if safe(lambda: n.name and n.getRoleName() in CONTROLS)})
        sys.stderr.write("%s: named controls: %s\n" % (state.name, " | ".join(names)))
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
        app = safe(lambda: desktop.getChildAtIndex(i))
        if app and app.name == "runwalk-app":
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


def wait_for(test, what, timeout=15.0):
    """The first true result of `test` (exceptions count as false) within `timeout` seconds."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        result = safe(test)
        if result:
            return result
        time.sleep(0.1)
    fail("timed out waiting for " + what)


def names(predicate):
    """The names of the nodes `predicate` takes, now."""
    root = app_root()
    return [n.name for n in walk(root) if safe(lambda: predicate(n))] if root is not None else []


def wait_names(predicate, what, timeout=15.0):
    return wait_for(lambda: names(predicate), what, timeout)


def control(role, name, timeout=15.0, roles=None):
    """The control of `role` (or of one of `roles`) named `name`."""
    roles = roles or (role,)
    # GTK 4.8 names an AdwMessageDialog's response buttons twice over ("Keep running Keep running").
    return find(lambda n: n.getRoleName() in roles and n.name in (name, name + " " + name), timeout,
                "%s %s" % ("/".join(roles), name))


def button(name, timeout=15.0):
    return control("push button", name, timeout)


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


def press(name, role="push button", timeout=15.0):
    control(role, name, timeout).queryAction().doAction(0)


def press_any(name, roles):
    """Presses the control of one of `roles` named `name`."""
    node = control(None, name, roles=roles)
    try:
        node.queryAction().doAction(0)
    except Exception:
        # GTK 4.8 gives check buttons no AT-SPI action: a click where it is, as a runner's finger.
        click(node)
        time.sleep(0.3)


def click(node):
    """A pointer click in the middle of `node`."""
    extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    subprocess.run(["xdotool", "mousemove", "--window", window_id(), str(extents.x + extents.width // 2),
                    str(extents.y + extents.height // 2), "click", "1"], check=True, timeout=10)


def window_id():
    out = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "RunWalk"],
                         capture_output=True, text=True, timeout=10).stdout.split()
    if not out:
        fail("no RunWalk window for xdotool")
    return out[0]


def shot_path(page, width, height):
    ending = "-" + state.scheme if state.scheme else ""
    return os.path.join(state.shots, "%s-%dx%d%s.png" % (page, width, height, ending))


def shoot(page):
    if not state.shots:
        return
    wid = window_id()
    for width, height in SIZES:
        subprocess.run(["xdotool", "windowsize", "--sync", wid, str(width), str(height)], timeout=10)
        # Pages re-lay themselves out on a frame-clock tick (one or two columns); without a
        # compositor GTK's frames come slowly after a resize.
        time.sleep(state.settle)
        subprocess.run(["import", "-window", wid, shot_path(page, width, height)], check=True, timeout=20)
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
    click(max(shown, key=lambda t: t.queryComponent().getExtents(pyatspi.WINDOW_COORDS).y))
    # The page's switch is animated: a click sent meanwhile may land on the page going away.
    time.sleep(1.0)


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
    # in GTK 4.8: a script checks what it was given elsewhere, in the file it lands in).
    deadline = time.time() + 5
    while time.time() < deadline and safe(lambda: entry.queryText().getText(0, -1)) != text:
        time.sleep(0.1)
    if enter:
        subprocess.run(["xdotool", "key", "Return"], check=True, timeout=10)


def hold(node, seconds):
    """Presses the pointer on `node` for `seconds` (AT-SPI actions can only click)."""
    extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    x, y = extents.x + extents.width // 2, extents.y + extents.height // 2
    wid = window_id()
    subprocess.run(["xdotool", "mousemove", "--window", wid, str(x), str(y)], check=True, timeout=10)
    subprocess.run(["xdotool", "mousedown", "1"], check=True, timeout=10)
    time.sleep(seconds)
    subprocess.run(["xdotool", "mouseup", "1"], check=True, timeout=10)
