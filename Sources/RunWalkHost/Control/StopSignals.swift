import Dispatch
import FoundationEssentials
import RunWalkIO
import RunWalkRuntime
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Signals as session commands for a front end that owns its process (`run`, `replay`):
/// SIGUSR1 toggles pause, SIGUSR2 skips, SIGINT, SIGTERM and SIGQUIT stop with a line on
/// standard error; SIGHUP is ignored (the run goes on headless).
///
/// A stop can never hang: a second SIGINT or SIGTERM (or SIGQUIT) ends the process at once
/// (status 128 + the signal), and so does the first one if the session has not ended within
/// `graceSeconds` of it. The store then still holds everything written so far, and the session
/// is recovered at the next start, as after a crash. One per session, held by its handle.
final class StopSignals: @unchecked Sendable {
    /// How long a stop signal gives the front end to finalise the session and end.
    static let graceSeconds = 1.5

    private var sources: SignalCommandSources?
    /// Whether the session is in the store (or not recorded): then an exit loses nothing of it.
    private let saved = Atomic<Bool>(false)
    /// Whether a deadline is set (the first one stands, with its signal's status).
    private let deadlineSet = Atomic<Bool>(false)

    /// Forwards the signals to `control` until the process ends; a stop sent to the session once
    /// its loop has ended (`runwalk control stop` while the summary is written) gives the front
    /// end the same grace as a signal.
    init(control: SessionControl) {
        // libdispatch registers the sources on its own thread; until it has, a signal meets SIG_IGN
        // and is lost. Waited for (briefly): a loaded machine must not start a session deaf to Ctrl-C.
        let armed = DispatchSemaphore(value: 0)
        sources = SignalCommandSources(control: control, armed: { armed.signal() }, say: { Self.standardError($0) },
                                       stopped: { [self] signal, repeated in
            if repeated { exitNow(signal, "runwalk: \(Self.name(signal)) again; exiting now") }
            armDeadline(signal)
        })
        control.afterEnd { [self] command in
            if command == .stop { armDeadline(SIGTERM) }
        }
        _ = armed.wait(timeout: .now() + 2)
    }

    /// The session has been handed to the store (or is not recorded): what is left is output.
    func sessionSaved() {
        saved.store(true, ordering: .sequentiallyConsistent)
    }

    /// Ends the process `graceSeconds` from now unless it has ended by then.
    private func armDeadline(_ signal: Int32) {
        guard !deadlineSet.exchange(true, ordering: .sequentiallyConsistent) else { return }
        // A thread of its own, not the dispatch pool's (all of whose threads may be blocked).
        _ = NamedThread.start(name: "runwalk-deadline") { [self] in
            usleep(UInt32(Self.graceSeconds * 1_000_000))
            exitNow(signal, "runwalk: the session did not end within \(Self.graceSeconds) s of the stop; exiting now")
        }
    }

    private static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "interrupted"
        case SIGTERM: "terminated"
        default: "quit"
        }
    }

    /// Says why (without waiting long for a standard error that does not take it) and ends the
    /// process with 128 + `signal`, without running exit handlers (a thread may hold the lock
    /// of a stream they would flush).
    private func exitNow(_ signal: Int32, _ why: String) -> Never {
        let said = DispatchSemaphore(value: 0)
        let kept = saved.load(ordering: .sequentiallyConsistent)
        // A thread of its own: the dispatch pool's few threads may all be taken.
        _ = NamedThread.start(name: "runwalk-exit") {
            Self.standardError(why + (kept ? " (the session is saved)" : ": the session will be recovered at the next start"))
            said.signal()
        }
        _ = said.wait(timeout: .now() + 0.2)
        _exit(128 + signal)
    }

    /// A line to standard error through write(2): a closed pipe is a failed write, not a trap.
    private static func standardError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
