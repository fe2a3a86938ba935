"""AT-SPI helpers for the app's page scripts: find controls by role and accessible name, press
them, read labels by their accessible description, take screenshots at the phone and desktop sizes.

Used by plans_page.py; run inside dbus-run-session with DISPLAY set (the Swift tests do that).
"""
import json, os, subprocess, sys, time

import pyatspi

SIZES = [(360, 720), (1280, 800)]


class Driver:
    def __init__(self, seen, shots, scheme):
        self.seen = seen
        self.shots = shots
        self.scheme = scheme
        self.app = None
        # The accessibility bus and registry up before the app asks for them.
        pyatspi.Registry.getDesktop(0).childCount

    def launch(self, argv):
        self.app = subprocess.Popen(argv)

    def quit(self, key):
        """Stops the app by its PID (SIGTERM) and notes its exit status under `key`."""
        if self.app is None:
            return
        self.app.terminate()
        try:
            self.seen[key] = self.app.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.app.kill()
            self.seen[key] = self.app.wait()
        self.app = None
        # The window gone from X before the next app's window is looked for.
        time.sleep(0.5)

    def fail(self, message):
        root = self.root()
        if root is not None:
            names = sorted({"%s:%s" % (n.getRoleName(), n.name) for n in walk(root)
                            if safe(lambda: n.getRoleName() in ("push button", "toggle button", "label", "check box", "radio button"))})
            sys.stderr.write("page script: controls: %s\n" % " | ".join(names))
        print(json.dumps(self.seen), flush=True)
        sys.stderr.write("page script: " + message + "\n")
        if self.app is not None:
            self.app.kill()
            self.app.wait()
        sys.exit(1)

    def root(self):
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = safe(lambda: desktop.getChildAtIndex(i))
            if app and app.name == "runwalk-app":
                return app
        return None

    def find(self, predicate, timeout=15.0, what="a control"):
        deadline = time.time() + timeout
        while time.time() < deadline:
            root = self.root()
            if root is not None:
                for node in walk(root):
                    if safe(lambda: predicate(node)):
                        return node
            time.sleep(0.1)
        self.fail("timed out waiting for " + what)

    def control(self, role, name, timeout=15.0):
        # GTK 4.8 names an AdwMessageDialog's response buttons twice over ("Stop Stop").
        return self.find(lambda n: n.getRoleName() == role and n.name in (name, name + " " + name), timeout, "%s %s" % (role, name))

    def press(self, name, role="push button"):
        self.control(role, name).queryAction().doAction(0)

    def press_any(self, name, roles):
        """Presses the control of one of `roles` named `name`."""
        node = self.find(lambda n: n.getRoleName() in roles and n.name in (name, name + " " + name), 15, "%s %s" % ("/".join(roles), name))
        try:
            node.queryAction().doAction(0)
        except Exception:
            # GTK 4.8 gives check buttons no AT-SPI action: a click where it is, as a runner's finger.
            self.click(node)

    def click(self, node):
        extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        x, y = extents.x + extents.width // 2, extents.y + extents.height // 2
        subprocess.run(["xdotool", "mousemove", "--window", self.window_id(), str(x), str(y), "click", "1"], check=True, timeout=10)
        time.sleep(0.3)

    def switch_to(self, title):
        """Shows a page by its switcher tab: the visible one lowest in the window (the bottom bar
        on a phone), clicked (GTK 4.8 gives page tabs no AT-SPI action)."""
        self.find(lambda n: n.getRoleName() == "page tab" and n.name == title, 15, "page tab " + title)
        tabs = [n for n in walk(self.root()) if safe(lambda: n.getRoleName() == "page tab" and n.name == title)]
        shown = [t for t in tabs if safe(lambda: t.queryComponent().getExtents(pyatspi.WINDOW_COORDS).width > 0)]
        if not shown:
            self.fail("no page tab %s on screen" % title)
        self.click(max(shown, key=lambda t: t.queryComponent().getExtents(pyatspi.WINDOW_COORDS).y))

    def value(self, description, timeout=15.0):
        """The text of the label whose accessible description is `description`."""
        return self.find(lambda n: n.getRoleName() == "label" and n.description == description, timeout, "label " + description).name

    def wait_value(self, description, test, timeout=15.0, what=None):
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            last = self.value(description, timeout)
            if test(last):
                return last
            time.sleep(0.1)
        self.fail("timed out waiting for %s (last %r)" % (what or description, last))

    def names(self, role, test):
        root = self.root()
        return [n.name for n in walk(root) if safe(lambda: n.getRoleName() == role and test(n.name or ""))] if root else []

    def window_id(self):
        out = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "RunWalk"],
                             capture_output=True, text=True, timeout=10).stdout.split()
        if not out:
            self.fail("no RunWalk window for xdotool")
        return out[0]

    def shoot(self, page):
        os.makedirs(self.shots, exist_ok=True)
        wid = self.window_id()
        for width, height in SIZES:
            subprocess.run(["xdotool", "windowsize", "--sync", wid, str(width), str(height)], timeout=10)
            time.sleep(2.5)
            path = os.path.join(self.shots, "%s-%dx%d-%s.png" % (page, width, height, self.scheme))
            subprocess.run(["import", "-window", wid, path], check=True, timeout=20)
        subprocess.run(["xdotool", "windowsize", "--sync", wid, "360", "720"], timeout=10)
        time.sleep(0.4)

    def hold(self, node, seconds):
        """Presses the pointer on `node` for `seconds` (AT-SPI actions can only click)."""
        extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        x, y = extents.x + extents.width // 2, extents.y + extents.height // 2
        wid = self.window_id()
        subprocess.run(["xdotool", "mousemove", "--window", wid, str(x), str(y)], check=True, timeout=10)
        subprocess.run(["xdotool", "mousedown", "1"], check=True, timeout=10)
        time.sleep(seconds)
        subprocess.run(["xdotool", "mouseup", "1"], check=True, timeout=10)


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


def safe(test):
    try:
        return test()
    except Exception:
        return False
