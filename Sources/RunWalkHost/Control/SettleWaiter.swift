import Dispatch
import RunWalkRuntime

/// Waits for the first status that passes a test; `cancel()` ends the wait early.
final class SettleWaiter: @unchecked Sendable {
    private let accepts: @Sendable (SessionStatus) -> Bool
    private let signal = DispatchSemaphore(value: 0)
    private let lock = Lock()
    private var settled: SessionStatus?
    private var done = false

    init(_ accepts: @escaping @Sendable (SessionStatus) -> Bool) { self.accepts = accepts }

    /// Called on the publishing thread: quick, no waiting.
    func offer(_ status: SessionStatus) {
        let first: Bool = lock.withLock {
            guard !done, accepts(status) else { return false }
            settled = status
            done = true
            return true
        }
        if first { signal.signal() }
    }

    func cancel() {
        let first: Bool = lock.withLock {
            defer { done = true }
            return !done
        }
        if first { signal.signal() }
    }

    func wait(seconds: Double) -> SessionStatus? {
        _ = signal.wait(timeout: .now() + seconds)
        return lock.withLock { settled }
    }
}
