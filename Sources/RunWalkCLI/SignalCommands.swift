import Dispatch
import FoundationEssentials
import RunWalkHost
import RunWalkIO
import RunWalkRuntime
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Signals as session commands for `run` and `replay`: SIGUSR1 toggles pause, SIGUSR2 skips,
/// SIGINT and SIGTERM stop with a line on standard error; SIGHUP is ignored (the run goes on headless).
///
/// A stop can never hang: a second SIGINT or SIGTERM (or SIGQUIT) ends the process at once
/// (status 128 + the signal), and so does the first one if the command has not ended within
/// `graceSeconds` of it. The store then still holds everything written so far, and the session
/// is recovered at the next start, as after a crash.
enum SignalCommands {
    private static let installed = Installed()

    /// How long a stop signal gives the command to finalise the session and end.
    static let graceSeconds = 1.5

    /// Forwards the signals to `control` from now until the process ends; a stop sent to the
    /// session once its loop has ended (`runwalk control stop` while the summary is written)
    /// gives the command the same grace as a signal.
    static func install(control: SessionControl) {
        installed.replace(with: SignalCommandSources(control: control, say: { StandardStreams.error($0) }, stopped: { signal, repeated in
            if repeated { exitNow(signal, "runwalk: \(name(signal)) again; exiting now") }
            armDeadline(signal)
        }))
        control.afterEnd { command in
            if command == .stop { armDeadline(SIGTERM) }
        }
    }

    /// Whether the session is in the store (or not recorded): then an exit loses nothing of it.
    private static let saved = Mutex(false)

    /// The session has been handed to the store (or is not recorded): what is left is output.
    static func sessionSaved() {
        saved.withLock { $0 = true }
    }

    /// Whether a deadline is set (the first one stands, with its signal's status).
    private static let deadlineSet = Mutex(false)

    /// Ends the process `graceSeconds` from now unless it has ended by then.
    private static func armDeadline(_ signal: Int32) {
        guard deadlineSet.withLock({ set in
            defer { set = true }
            return !set
        }) else { return }
        // A thread of its own, not the dispatch pool's (all of whose threads may be blocked).
        _ = NamedThread.start(name: "runwalk-deadline") {
            usleep(UInt32(graceSeconds * 1_000_000))
            exitNow(signal, "runwalk: the session did not end within \(graceSeconds) s of the stop; exiting now")
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
    private static func exitNow(_ signal: Int32, _ why: String) -> Never {
        let said = DispatchSemaphore(value: 0)
        // A thread of its own: the dispatch pool's few threads may all be taken.
        _ = NamedThread.start(name: "runwalk-exit") {
            StandardStreams.error(why + (saved.withLock { $0 } ? " (the session is saved)" : ": the session will be recovered at the next start"))
            said.signal()
        }
        _ = said.wait(timeout: .now() + 0.2)
        _exit(128 + signal)
    }

    /// Keeps the sources alive (a cancelled or released DispatchSource stops reporting).
    private final class Installed: @unchecked Sendable {
        private let lock = Lock()
        private var current: SignalCommandSources?

        func replace(with sources: SignalCommandSources) {
            let previous = lock.withLock {
                defer { current = sources }
                return current
            }
            previous?.cancel()
        }
    }
}
