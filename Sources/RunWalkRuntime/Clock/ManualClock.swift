/// A clock that moves only when told (`advance(by:)`): the session loop's clock in tests.
///
/// Sleepers (tasks asleep on it, and the loop timer's alarm) wake, in deadline order, when the
/// clock is advanced past their deadline.
public final class ManualClock: LoopClock, @unchecked Sendable {
    public struct Instant: InstantProtocol, Sendable {
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Alarm {
        var deadline: Instant
        var ring: @Sendable () -> Void
    }

    private let lock = Lock()
    // Under `lock`.
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var alarms: [ObjectIdentifier: Alarm] = [:]
    private var nextID = 0

    public init() {}

    public var now: Instant { lock.withLock { current } }
    public var minimumResolution: Duration { .zero }

    /// How many wait on this clock: tasks asleep, and the loop timer's alarm while it is set.
    public var sleeperCount: Int { lock.withLock { sleepers.count + alarms.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if deadline <= current || Task.isCancelled { return true }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
            try Task.checkCancellation()
        } onCancel: {
            let sleeper: Sleeper? = lock.withLock {
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Always until the alarm: this clock's time moves only by `advance(by:)`.
    public func realTimeUntil(_ deadline: Instant) -> Duration? { nil }

    public func setAlarm(_ deadline: Instant?, owner: ObjectIdentifier, ring: @escaping @Sendable () -> Void) {
        let ringNow: Bool = lock.withLock {
            alarms[owner] = nil
            guard let deadline else { return false }
            if deadline <= current { return true }
            alarms[owner] = Alarm(deadline: deadline, ring: ring)
            return false
        }
        if ringNow { ring() }
    }

    /// Moves the clock on, waking every sleeper (and ringing every alarm) whose deadline has
    /// come, earliest first.
    public func advance(by duration: Duration) {
        let due: [(deadline: Instant, wake: () -> Void)] = lock.withLock {
            current = current.advanced(by: duration)
            let now = current
            var due: [(deadline: Instant, wake: () -> Void)] = sleepers.filter { $0.deadline <= now }.map { sleeper in
                (sleeper.deadline, { sleeper.continuation.resume() })
            }
            sleepers.removeAll { $0.deadline <= now }
            for (owner, alarm) in alarms where alarm.deadline <= now {
                due.append((alarm.deadline, alarm.ring))
                alarms[owner] = nil
            }
            return due.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.wake() }
    }
}
