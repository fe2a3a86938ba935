import CJobControl
import Dispatch
import FoundationEssentials
import RunWalkIO
import RunWalkRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-Z and `fg` for a live session: SIGTSTP pauses the workout (and waits until the pause
/// took effect), gives the terminal back, then lets the process stop; SIGCONT (after `fg` or `bg`)
/// takes the terminal again and resumes the workout, unless it was paused before the stop.
///
/// Without this the stopped process's clock ran on while it was stopped and the cues it missed
/// came out together at `fg`.
///
/// SIGTSTP is blocked in every thread (`holdStopSignals()`, first in `main`, so every thread
/// inherits it), so it stays pending until the process is ready to stop. A thread of ours sees it
/// pending through a signalfd, which does not take it; once the workout is paused, that thread
/// unblocks SIGTSTP for itself and the kernel stops the process by its default action. A SIGCONT
/// sent at any moment before that discards the pending SIGTSTP (the kernel's own rule), so Ctrl-Z
/// and `fg` in quick succession, in any order and with any timing, never leave the process
/// stopped with nobody to continue it.
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
    private let lock = Lock()
    private var terminal: Terminal?
    private var cancelled = false

    /// Blocks SIGTSTP in the calling thread, and so in every thread it starts from then on. Call it
    /// first in `main`, before any thread starts, in a process that will make a `StopSignalPause`.
    public static func holdStopSignals() {
        var stop = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGTSTP)
        pthread_sigmask(SIG_BLOCK, &stop, nil)
    }

    /// Starts handling SIGTSTP for `control`'s session; `armed` runs once the handler is ready.
    public init(control: SessionControl, armed: (@Sendable () -> Void)? = nil) {
        self.control = control
        // The calling thread too (a process that did not hold them first in main still gets this
        // thread's and its future threads' SIGTSTP handled here; one that did changes nothing).
        Self.holdStopSignals()
        let descriptor = runwalk_tstp_signalfd()
        if descriptor >= 0 {
            NamedThread.start(name: "runwalk-sigtstp") { [weak self] in
                defer { close(descriptor) }
                while Self.waitForPendingStop(descriptor) {
                    guard let self, !lock.withLock({ cancelled }) else {
                        // A late Ctrl-Z cannot stop a finishing session: taken and dropped.
                        Self.take(descriptor)
                        continue
                    }
                    suspend()
                }
            }
        }
        armed?()
    }

    /// Sets (or clears) what gives the terminal back before the stop and takes it after.
    public func setTerminal(_ terminal: Terminal?) {
        lock.withLock { self.terminal = terminal }
    }

    /// Stops handling SIGTSTP; a later one is dropped, so it cannot stop a finishing session.
    public func cancel() {
        lock.withLock { cancelled = true }
    }

    /// Pauses, gives the terminal back and lets the pending SIGTSTP stop the process (unless a
    /// SIGCONT has discarded it meanwhile); after SIGCONT, takes the terminal and resumes.
    private func suspend() {
        let pausedHere = pauseAndWait()
        let terminal = lock.withLock { self.terminal }
        terminal?.release()
        // The pending SIGTSTP, if it is still pending, is delivered to this thread as soon as it
        // is unblocked here: the process stops inside this call and returns from it at SIGCONT.
        var stop = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &stop, nil)
        pthread_sigmask(SIG_BLOCK, &stop, nil)
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

    /// Waits until a SIGTSTP is pending (without taking it); false if the descriptor fails.
    private static func waitForPendingStop(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, -1)
            if ready > 0 { return entry.revents & Int16(POLLIN) != 0 }
            if ready < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// Takes the pending SIGTSTP, which then never stops the process.
    private static func take(_ descriptor: Int32) {
        var info = signalfd_siginfo_bytes()
        _ = withUnsafeMutableBytes(of: &info) { read(descriptor, $0.baseAddress, $0.count) }
    }
}

/// Room for one `struct signalfd_siginfo` (128 bytes), which Swift's Glibc does not carry.
private struct signalfd_siginfo_bytes {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}
