import Dispatch
import FoundationEssentials
import RunWalkRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-Z and `fg` for a live session: SIGTSTP pauses the workout (and waits until the pause
/// took effect), gives the terminal back, then stops the process; SIGCONT (after `fg` or `bg`)
/// takes the terminal again and resumes the workout, unless it was paused before the stop.
///
/// Without this the stopped process's clock ran on while it was stopped and the cues it missed
/// came out together at `fg`. SIGTSTP is ignored and reported by a DispatchSource, so its default
/// action never runs; the process stops itself with SIGSTOP once it is ready, and that call
/// returns when SIGCONT arrives.
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
    private var source: DispatchSourceSignal?

    /// Starts handling SIGTSTP for `control`'s session; `armed` runs once the source is registered.
    public init(control: SessionControl, armed: (@Sendable () -> Void)? = nil) {
        self.control = control
        signal(SIGTSTP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: DispatchQueue(label: "runwalk.sigtstp"))
        source.setRegistrationHandler { armed?() }
        source.setEventHandler { [weak self] in self?.suspend() }
        source.resume()
        self.source = source
    }

    /// Sets (or clears) what gives the terminal back before the stop and takes it after.
    public func setTerminal(_ terminal: Terminal?) {
        lock.withLock { self.terminal = terminal }
    }

    /// Stops handling SIGTSTP; it stays ignored so a late one cannot stop a finishing session.
    public func cancel() {
        lock.withLock {
            source?.cancel()
            source = nil
        }
    }

    private func suspend() {
        let pausedHere = pauseAndWait()
        let terminal = lock.withLock { self.terminal }
        terminal?.release()
        // Stops here; returns once SIGCONT has arrived.
        raise(SIGSTOP)
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
