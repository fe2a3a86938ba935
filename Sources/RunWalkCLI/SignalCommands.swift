import FoundationEssentials
import RunWalkIO
import RunWalkRuntime

/// Signals as session commands for `run`: SIGUSR1 toggles pause, SIGUSR2 skips, SIGINT and
/// SIGTERM stop with a line on standard error; SIGHUP is ignored (the run goes on headless).
enum SignalCommands {
    private static let installed = Installed()

    /// Forwards the signals to `control` from now until the process ends.
    static func install(control: SessionControl) {
        installed.replace(with: SignalCommandSources(control: control) { StandardStreams.error($0) })
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
