#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Puts the terminal back (termios, cursor, wrapping, main screen) from anywhere, once: `stop()`,
/// the process's normal exit and the handlers of SIGINT, SIGTERM, SIGHUP and SIGQUIT.
///
/// A signal handler may only do async-signal-safe work, so everything it needs is prepared by
/// `arm` beforehand in plain storage: the saved termios, the file descriptors and the bytes to
/// write; the handler calls `tcsetattr(3)` and `write(2)` and nothing else.
enum TerminalRestore {
    /// 0: nothing armed; 1: armed (the terminal is full-screen); 2: restored.
    static let state = Atomic<Int>(0)
    nonisolated(unsafe) private static var input: Int32 = -1
    nonisolated(unsafe) private static var output: Int32 = -1
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var bytes: UnsafeMutableBufferPointer<UInt8>?
    /// The write end of the front end's wake pipe (for SIGWINCH), -1 when none.
    nonisolated(unsafe) static var wake: Int32 = -1
    /// The actions the handlers replaced, by signal number, so they run after ours (and come back).
    nonisolated(unsafe) private static var previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    nonisolated(unsafe) private static var exitHookInstalled = false

    /// Signals after which the terminal is restored before the program's own handling goes on.
    static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// The bytes that undo the full-screen mode: reset colours, wrap lines, show the cursor, main screen.
    static let leaveSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)

    /// Prepares a restore of `input`'s termios (`saved`) and of `output`'s screen; false when
    /// another front end is armed already.
    static func arm(input: Int32, output: Int32, saved: termios) -> Bool {
        guard state.load(ordering: .sequentiallyConsistent) != 1 else { return false }
        // The fields first, then the state: a signal arriving in between finds nothing armed.
        self.input = input
        self.output = output
        self.saved = saved
        if bytes == nil {
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: leaveSequence.count)
            _ = buffer.initialize(from: leaveSequence)
            bytes = buffer
        }
        if !exitHookInstalled {
            exitHookInstalled = true
            // A program that returns from main without calling stop() still gets its terminal back.
            atexit { TerminalRestore.restore() }
        }
        state.store(1, ordering: .sequentiallyConsistent)
        return true
    }

    /// Whether the terminal is still full-screen (armed and not restored).
    static var isArmed: Bool { state.load(ordering: .sequentiallyConsistent) == 1 }

    /// Restores the terminal if it is armed; idempotent, async-signal-safe (tcsetattr and write only).
    static func restore() {
        guard state.compareExchange(expected: 1, desired: 2, ordering: .sequentiallyConsistent).exchanged else { return }
        _ = tcsetattr(input, TCSANOW, &saved)
        if let bytes, let base = bytes.baseAddress { writeAll(output, base, bytes.count) }
    }

    /// Writes `count` bytes, retrying after EINTR and waiting briefly on EAGAIN; gives up on any
    /// other error (a lost frame must not stop the workout). Async-signal-safe.
    static func writeAll(_ fd: Int32, _ base: UnsafePointer<UInt8>, _ count: Int) {
        var done = 0
        var stalls = 0
        while done < count {
            let written = write(fd, base + done, count - done)
            if written > 0 { done += written; stalls = 0; continue }
            if written < 0 && errno == EINTR { continue }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && stalls < 20 {
                // A full, non-blocking terminal: wait up to 50 ms for room, at most 20 times.
                stalls += 1
                var pending = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&pending, 1, 50)
                continue
            }
            return
        }
    }

    /// The handler `installHandlers` put in place, to tell it from one installed after it.
    nonisolated(unsafe) private static var installed: Int = 0

    /// Installs the handlers of the ending signals and of SIGWINCH, keeping the actions they replace.
    static func installHandlers() {
        for signal in endingSignals + [SIGWINCH] {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { number, info, context in
                TerminalRestore.handle(number, info, context)
            }
            installed = unsafeBitCast(action.__sigaction_handler.sa_sigaction, to: Int.self)
            action.sa_flags = SA_SIGINFO | SA_RESTART
            sigemptyset(&action.sa_mask)
            _ = sigaction(signal, &action, previous + Int(signal))
        }
    }

    /// Puts back the actions `installHandlers` replaced, where ours is still the one installed (a
    /// handler the program installed since, such as libdispatch's for a signal source, stays).
    static func removeHandlers() {
        for signal in endingSignals + [SIGWINCH] {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0,
                  unsafeBitCast(current.__sigaction_handler.sa_sigaction, to: Int.self) == installed else { continue }
            _ = sigaction(signal, previous + Int(signal), nil)
        }
    }

    private static func handle(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        let saved = errno
        defer { errno = saved }
        let old = previous + Int(number)
        let handler = unsafeBitCast(old.pointee.__sigaction_handler.sa_handler, to: Int.self)
        let ignored = handler == unsafeBitCast(SIG_IGN, to: Int.self)
        let byDefault = handler == 0
        if number == SIGWINCH {
            if wake >= 0 { var byte = UInt8(ascii: "w"); _ = write(wake, &byte, 1) }
        } else if !ignored {
            // The program will end or stop the workout: give the terminal back first.
            restore()
        }
        if byDefault {
            // The default action (termination) happens once this handler returns and the signal,
            // blocked while it runs, is delivered again.
            guard number != SIGWINCH else { return }
            _ = sigaction(number, old, nil)
            _ = raise(number)
        } else if !ignored {
            if old.pointee.sa_flags & SA_SIGINFO != 0 {
                old.pointee.__sigaction_handler.sa_sigaction?(number, info, context)
            } else {
                old.pointee.__sigaction_handler.sa_handler?(number)
            }
        }
    }
}
