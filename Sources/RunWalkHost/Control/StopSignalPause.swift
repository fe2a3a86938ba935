import Dispatch
import FoundationEssentials
import RunWalkIO
import RunWalkRuntime
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Ctrl-Z and `fg` for a live session: SIGTSTP pauses the workout (and waits until the pause
/// took effect), gives the terminal back, then stops the process; SIGCONT (after `fg` or `bg`)
/// takes the terminal again and resumes the workout, unless it was paused before the stop.
///
/// Without this the stopped process's clock ran on while it was stopped and the cues it missed
/// came out together at `fg`. SIGTSTP's handler only wakes a thread of ours, so its default
/// action never runs; the process stops itself with SIGSTOP once it is ready, and that call
/// returns when SIGCONT arrives. SIGCONT is counted: one that arrives while the pause is still
/// being made (Ctrl-Z and `fg` in quick succession) cancels the stop, as the kernel's own SIGCONT
/// discards a pending stop, instead of leaving the process stopped with nobody to continue it.
public final class StopSignalPause: @unchecked Sendable {
    /// What the front end does around the stop: give the terminal back, and take it again.
    public struct Terminal: Sendable {
        public var release: @Sendable () -> Void
        public var retake: @Sendable () -> Void

        public init(release: @escaping @Sendable () -> Void, retake: @escaping @Sendable () -> Void) {
            self.release = release
            self.retake = retake
        }
    }

    /// The longest wait for the session to confirm the pause before stopping anyway.
    public static let pauseConfirmationSeconds = 2.0

    private let control: SessionControl
    fileprivate let lock = Lock()
    private var terminal: Terminal?
    fileprivate var cancelled = false

    /// Starts handling SIGTSTP for `control`'s session; `armed` runs once the handler is installed.
    public init(control: SessionControl, armed: (@Sendable () -> Void)? = nil) {
        self.control = control
        JobSignals.setHandler(self)
        if JobSignals.install() {
            NamedThread.start(name: "runwalk-sigtstp") {
                while let mark = JobSignals.waitForStop() {
                    guard let handler = JobSignals.handler else { continue }
                    if handler.lock.withLock({ handler.cancelled }) { continue }
                    handler.suspend(continuesBefore: mark)
                }
            }
        }
        armed?()
    }
    /// Sets (or clears) what gives the terminal back before the stop and takes it after.
    public func setTerminal(_ terminal: Terminal?) {
        lock.withLock { self.terminal = terminal }
    }

    /// Stops handling SIGTSTP; it stays ignored so a late one cannot stop a finishing session.
    public func cancel() {
        lock.withLock { cancelled = true }
    }

    /// Pauses, gives the terminal back and stops, unless a SIGCONT came after the SIGTSTP
    /// (`continuesBefore`: the SIGCONTs counted when it arrived).
    fileprivate func suspend(continuesBefore mark: Int) {
        let pausedHere = pauseAndWait()
        let terminal = lock.withLock { self.terminal }
        terminal?.release()
        // Stops here; returns once SIGCONT has arrived. (A SIGCONT sent between the last check and
        // the raise, a few instructions, would still be lost: no call stops a process only if
        // none came, and SIGTSTP cannot stay pending for the kernel to discard without blocking it
        // in every thread. See notes/issue-31.md.)
        if !JobSignals.continuedSince(mark) {
            // A SIGCONT sent just before now may not have been taken by any thread yet (on a busy
            // machine the thread the kernel picked can wait milliseconds to run): give it time.
            usleep(useconds_t(JobSignals.graceMicroseconds))
            if !JobSignals.continuedSince(mark) { raise(SIGSTOP) }
        }
        terminal?.retake()
        if pausedHere && !control.hasEnded { control.send(.resume) }
    }

    /// Pauses a running workout and waits until its status says so; true when this paused it
    /// (a workout already paused, or not running yet, is left as it is).
    private func pauseAndWait() -> Bool {
        guard let status = control.status, status.stage == .running, !status.paused, !control.hasEnded else { return false }
        let confirmed = DispatchSemaphore(value: 0)
        let token = control.observe { status in
            if status.paused || status.isFinished { confirmed.signal() }
        }
        defer { control.removeObserver(token) }
        control.send(.pause)
        _ = confirmed.wait(timeout: .now() + Self.pauseConfirmationSeconds)
        return true
    }
}

/// SIGTSTP and SIGCONT as the kernel delivers them, in the order it does: the handlers only
/// count and write one byte to a pipe (async-signal-safe), a thread does the rest.
enum JobSignals {
    /// SIGCONTs received.
    static let continues = Atomic<Int>(0)
    /// The SIGCONT count when the latest SIGTSTP arrived.
    static let continuesAtStop = Atomic<Int>(0)
    /// CLOCK_MONOTONIC (ns) of the latest SIGCONT and of the latest SIGTSTP.
    static let continueNanos = Atomic<Int>(Int.min)
    static let stopNanos = Atomic<Int>(0)
    /// A SIGCONT this close before a SIGTSTP counts as after it. The two handlers can run at once
    /// on two threads (a SIGTSTP already taken for delivery is not discarded by the SIGCONT that
    /// follows), so their order in the counters is not the order they were sent in; a continue
    /// sent right after a stop is then taken as cancelling it. Ctrl-Z within this time of `fg`
    /// is ignored (press it again), never the other way round: a stop nobody continues.
    static let ambiguityNanos = 100_000_000
    /// How long a stop waits for a SIGCONT already sent but not yet handled.
    static let graceMicroseconds = 50_000

    /// Whether a SIGCONT came after the SIGTSTP that counted `mark` continues (or about when it
    /// came), or has been sent and waits for a thread to take it: on a busy machine the thread the
    /// kernel picked may not have run for milliseconds, and once the process stops it never will.
    static func continuedSince(_ mark: Int) -> Bool {
        var pending = sigset_t()
        if sigpending(&pending) == 0 && sigismember(&pending, SIGCONT) == 1 { return true }
        return continues.load(ordering: .sequentiallyConsistent) != mark
            || continueNanos.load(ordering: .sequentiallyConsistent) >= stopNanos.load(ordering: .sequentiallyConsistent) - ambiguityNanos
    }

    /// CLOCK_MONOTONIC in nanoseconds (async-signal-safe).
    static func monotonicNanos() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }
    /// The pipe's write end (-1 until installed).
    static let wakeWrite = Atomic<Int32>(-1)
    nonisolated(unsafe) private static var wakeRead: Int32 = -1
    private static let installLock = Lock()
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static weak var current: StopSignalPause?

    /// The session's handler (the latest one made), nil once it is gone.
    static var handler: StopSignalPause? { installLock.withLock { current } }

    static func setHandler(_ handler: StopSignalPause) {
        installLock.withLock { current = handler }
    }

    /// Installs both handlers once per process; true the first time (the caller starts the thread).
    static func install() -> Bool {
        installLock.withLock {
            guard !installed else { return false }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return false }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
            wakeRead = ends[0]
            // Touched here, not first in a handler (a static's first use is not async-signal-safe).
            _ = continues.load(ordering: .relaxed)
            _ = continuesAtStop.load(ordering: .relaxed)
            _ = continueNanos.load(ordering: .relaxed)
            _ = stopNanos.load(ordering: .relaxed)
            wakeWrite.store(ends[1], ordering: .sequentiallyConsistent)
            var onStop = sigaction()
            onStop.__sigaction_handler.sa_handler = { _ in
                let saved = errno
                JobSignals.stopNanos.store(JobSignals.monotonicNanos(), ordering: .sequentiallyConsistent)
                JobSignals.continuesAtStop.store(JobSignals.continues.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
                var byte: UInt8 = 1
                _ = write(JobSignals.wakeWrite.load(ordering: .sequentiallyConsistent), &byte, 1)
                errno = saved
            }
            onStop.sa_flags = SA_RESTART
            sigemptyset(&onStop.sa_mask)
            var onContinue = sigaction()
            onContinue.__sigaction_handler.sa_handler = { _ in
                JobSignals.continueNanos.store(JobSignals.monotonicNanos(), ordering: .sequentiallyConsistent)
                JobSignals.continues.add(1, ordering: .sequentiallyConsistent)
            }
            onContinue.sa_flags = SA_RESTART
            sigemptyset(&onContinue.sa_mask)
            sigaction(SIGCONT, &onContinue, nil)
            sigaction(SIGTSTP, &onStop, nil)
            installed = true
            return true
        }
    }

    /// Waits for a SIGTSTP (several in a row count once) and returns the SIGCONT count at the
    /// latest; nil if the pipe fails.
    static func waitForStop() -> Int? {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = bytes.withUnsafeMutableBytes { read(wakeRead, $0.baseAddress, $0.count) }
            if count > 0 { return continuesAtStop.load(ordering: .sequentiallyConsistent) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
