import FoundationEssentials
import RunWalkCore

/// The one thing every front end holds: it sends commands to the running session and reads
/// (or follows) its status.
///
/// The session loop consumes `commands` and calls `publish(_:)`; front ends call `send(_:)`,
/// read `status` and `observe` changes. Thread-safe; observers are called on the publishing
/// thread, so they must return quickly (hand work to their own queue or actor).
public final class SessionControl: @unchecked Sendable {
    /// Commands in the order they were sent; finished when the session ends.
    public let commands: AsyncStream<SessionCommand>
    private let continuation: AsyncStream<SessionCommand>.Continuation
    private let lock = Lock()
    private var latest: SessionStatus?
    private var observers: [Int: @Sendable (SessionStatus) -> Void] = [:]
    private var nextObserver = 0
    private var ended = false
    private var lateCommand: (@Sendable (SessionCommand) -> Void)?

    /// A live heart-rate strap's inputs in the order they came; finished when the session ends.
    public let heartRates: AsyncStream<HeartRateInput>
    private let heartRateContinuation: AsyncStream<HeartRateInput>.Continuation

    public init() {
        (commands, continuation) = AsyncStream<SessionCommand>.makeStream(bufferingPolicy: .unbounded)
        (heartRates, heartRateContinuation) = AsyncStream<HeartRateInput>.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    /// Hands the session a heart-rate strap's input (its adapter's thread); ignored once it has ended.
    public func send(heartRate input: HeartRateInput) {
        heartRateContinuation.yield(input)
    }

    /// Asks the session to do `command`; once the session has ended it goes to the handler
    /// `afterEnd` set, if any (else it is ignored).
    public func send(_ command: SessionCommand) {
        let late: (@Sendable (SessionCommand) -> Void)? = lock.withLock { ended ? lateCommand : nil }
        if let late { return late(command) }
        continuation.yield(command)
    }

    /// Calls `handler` with each command sent after the session's loop has ended (while the
    /// front end finishes: writes the summary, lets the voice finish): a stop then asks the
    /// front end itself to end.
    public func afterEnd(_ handler: @escaping @Sendable (SessionCommand) -> Void) {
        lock.withLock { lateCommand = handler }
    }

    /// The latest status, nil before the session published one.
    public var status: SessionStatus? { lock.withLock { latest } }

    /// Whether the session has ended (its last status is final).
    public var hasEnded: Bool { lock.withLock { ended } }

    /// Calls `handler` with every status from now on (and at once with the latest, if any).
    /// Returns a token for `removeObserver`.
    @discardableResult
    public func observe(_ handler: @escaping @Sendable (SessionStatus) -> Void) -> Int {
        let (token, current): (Int, SessionStatus?) = lock.withLock {
            nextObserver += 1
            observers[nextObserver] = handler
            return (nextObserver, latest)
        }
        if let current { handler(current) }
        return token
    }

    public func removeObserver(_ token: Int) {
        lock.withLock { _ = observers.removeValue(forKey: token) }
    }

    /// The session loop publishes a status (on every change, at least once a second).
    public func publish(_ status: SessionStatus) {
        let handlers: [@Sendable (SessionStatus) -> Void] = lock.withLock {
            latest = status
            return Array(observers.values)
        }
        for handler in handlers { handler(status) }
    }

    /// The session loop has ended: no more commands are taken.
    public func finish() {
        lock.withLock { ended = true }
        continuation.finish()
        heartRateContinuation.finish()
    }
}
