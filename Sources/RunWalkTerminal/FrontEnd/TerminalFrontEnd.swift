#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import FoundationEssentials
import RunWalkRuntime

/// The full-screen terminal display of a running session: draws `SessionStatus` on the alternate
/// screen and turns keys into `SessionCommand`s, through a `SessionControl` and nothing else.
///
/// ```swift
/// if let screen = TerminalFrontEnd.start(control: control) {
///     // … the session runs …
///     screen.stop()  // the terminal is back; print the summary now
/// }
/// ```
/// One thread reads keys, follows the status and draws (at most `maxFramesPerSecond`, and only rows
/// that changed). The terminal is restored by `stop()`, at exit, and on SIGINT, SIGTERM and SIGHUP
/// before the program's own handling of them runs.
public final class TerminalFrontEnd: @unchecked Sendable {
    /// Frames drawn per second at most; statuses arriving faster are coalesced.
    public static let maxFramesPerSecond = 5.0

    private let control: SessionControl
    private let input: Int32
    private let output: Int32
    private let colour: Bool
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let lock = Lock()
    private var latest: SessionStatus?
    private var playing: String?
    private var musicControls: (@Sendable (KeyHandler.MusicKey) -> Void)?
    private var stopping = false
    private var stopped = false
    private var observer: Int?
    private let finished = DispatchSemaphore(value: 0)
    /// The termios the view started from, put back while the process is stopped (Ctrl-Z).
    private var saved = termios()
    /// Held while a frame is written, so a suspension never lands between a frame's bytes.
    private let drawing = Lock()
    /// The terminal is given back (the process is about to stop, or stopped): no frames.
    private var suspended = false

    /// Starts the display when `input` and `output` are terminals and the terminal can draw one
    /// (TERM set and not `dumb`); nil otherwise, and the caller stays in line mode. `NO_COLOR`
    /// (set and not empty) turns colour off.
    public static func start(control: SessionControl,
                             environment: [String: String] = ProcessInfo.processInfo.environment,
                             input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) -> TerminalFrontEnd? {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return nil }
        let colour = (environment["NO_COLOR"] ?? "").isEmpty
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return nil }
        for end in pipeEnds {
            // Non-blocking: a signal handler writing to a full pipe must not hang.
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        guard TerminalRestore.arm(input: input, output: output, saved: saved) else {
            close(pipeEnds[0]); close(pipeEnds[1])
            return nil
        }
        let frontEnd = TerminalFrontEnd(control: control, input: input, output: output, colour: colour,
                                        wakeRead: pipeEnds[0], wakeWrite: pipeEnds[1])
        frontEnd.begin(saved: saved)
        return frontEnd
    }

    private init(control: SessionControl, input: Int32, output: Int32, colour: Bool, wakeRead: Int32, wakeWrite: Int32) {
        self.control = control
        self.input = input
        self.output = output
        self.colour = colour
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
    }

    private func begin(saved: termios) {
        self.saved = saved
        TerminalRestore.wake = wakeWrite
        TerminalRestore.installHandlers()
        enterFullScreen()
        observer = control.observe { [weak self] status in self?.received(status) }
        NamedThread.start(name: "runwalk-terminal") { [self] in loop() }
    }

    /// Alternate screen, cursor hidden, no wrapping, keys one by one.
    private func enterFullScreen() {
        // Alternate screen (cleared by entering it), cursor hidden, no wrapping at the right edge.
        write(Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l".utf8))
        var raw = saved
        // Keys arrive one by one, unechoed; ISIG stays, so Ctrl-C is still SIGINT.
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
        // No XON/XOFF: Ctrl-S would stop output and block the drawing thread, and stop() with it.
        raw.c_iflag &= ~tcflag_t(IXON)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        _ = tcsetattr(input, TCSANOW, &raw)
    }

    /// Gives the terminal back as it was (Ctrl-Z: the shell's prompt must be usable while the
    /// process is stopped); no frame is drawn until `retake()`.
    public func suspend() {
        drawing.withLock {
            guard lock.withLock({ !stopping && !suspended }) else { return }
            lock.withLock { suspended = true }
            TerminalRestore.restore()
        }
    }

    /// Takes the terminal again after `suspend()` (the process was continued) and redraws it whole.
    public func retake() {
        drawing.withLock {
            guard lock.withLock({ !stopping && suspended }) else { return }
            guard TerminalRestore.arm(input: input, output: output, saved: saved) else { return }
            enterFullScreen()
            lock.withLock { suspended = false }
        }
        wake("w")
    }

    /// Ends the display and restores the terminal; returns once it is restored. Idempotent.
    public func stop() {
        let first: Bool = lock.withLock {
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        if let observer { control.removeObserver(observer) }
        wake("q")
        finished.wait()
        TerminalRestore.restore()
        TerminalRestore.removeHandlers()
        TerminalRestore.wake = -1
        close(wakeRead)
        close(wakeWrite)
    }

    deinit { stop() }

    /// Where the m (play/pause) and > (next track) keys go: the runner's music player.
    public func setMusicControls(_ handler: @escaping @Sendable (KeyHandler.MusicKey) -> Void) {
        lock.withLock { musicControls = handler }
    }

    /// What the runner's music player plays ("Title — Artist"), shown under the status; nil hides it.
    public func setNowPlaying(_ line: String?) {
        lock.withLock { playing = line }
        wake("s")
    }

    private func received(_ status: SessionStatus) {
        lock.withLock { latest = status }
        wake("s")
    }

    private func wake(_ reason: Character) {
        var byte = reason.asciiValue ?? 0
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    /// Keys, statuses and resizes in; frames out; until `stop()`.
    private func loop() {
        defer { finished.signal() }
        var keys = KeyHandler()
        var painter = FramePainter()
        var dirty = true
        var resized = true
        var inputOpen = true
        var lastDraw = ContinuousClock.now - .seconds(1)
        let interval = Duration.seconds(1 / Self.maxFramesPerSecond)
        while true {
            let now = ContinuousClock.now
            var timeout: Int32 = -1
            if dirty {
                let wait = interval - (now - lastDraw)
                timeout = wait <= .zero ? 0 : Int32(wait / .milliseconds(1)) + 1
            }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inputOpen ? input : -1, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { inputOpen = false }
            if fds[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = read(wakeRead, &buffer, buffer.count)
                if count > 0 {
                    let reasons = buffer.prefix(count)
                    if reasons.contains(UInt8(ascii: "q")) { return }
                    if reasons.contains(UInt8(ascii: "w")) { resized = true }
                    dirty = true
                }
            }
            if inputOpen && fds[1].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = read(input, &buffer, buffer.count)
                if count > 0 {
                    let stage = lock.withLock { latest?.stage }
                    let before = keys.overlay
                    for command in keys.handle(buffer.prefix(count), stage: stage) { control.send(command) }
                    let music = keys.takeMusicKeys()
                    if !music.isEmpty, let controls = lock.withLock({ musicControls }) { music.forEach(controls) }
                    if keys.overlay != before { dirty = true }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    // The terminal hung up: keep drawing what we can, stop reading.
                    inputOpen = false
                }
            }
            if dirty && ContinuousClock.now - lastDraw >= interval {
                let drawn: Bool? = drawing.withLock {
                    // Suspended (Ctrl-Z): nothing is drawn; `retake` wakes the loop for a whole frame.
                    if lock.withLock({ suspended }) { return false }
                    guard TerminalRestore.isArmed else { return nil }
                    let size = Self.size(of: output)
                    let (status, music) = lock.withLock { (latest, playing) }
                    let frame = TerminalScreen.render(status: status, columns: size.columns, rows: size.rows,
                                                      colour: colour, overlay: keys.overlay, nowPlaying: music)
                    let bytes = painter.paint(frame, columns: size.columns, rows: size.rows, forceAll: resized)
                    if !bytes.isEmpty { write(bytes) }
                    return true
                }
                guard let drawn else { return }
                if drawn {
                    lastDraw = ContinuousClock.now
                    resized = false
                }
                dirty = false
            }
        }
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { TerminalRestore.writeAll(output, base, buffer.count) }
        }
    }

    /// The terminal's size (TIOCGWINSZ), 80×24 when it does not say.
    static func size(of fd: Int32) -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
