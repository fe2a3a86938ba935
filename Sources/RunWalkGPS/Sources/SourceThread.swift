import RunWalkRuntime
import Foundation

/// A flag a consumer sets to ask a source's thread to finish.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    var isSet: Bool { lock.withLock { stopped } }

    func set() { lock.withLock { stopped = true } }

    /// Sleeps up to `seconds` in short steps; returns false if asked to stop meanwhile.
    func sleep(seconds: Double) -> Bool {
        var left = seconds
        while left > 0 {
            if isSet { return false }
            let step = min(left, 0.05)
            Thread.sleep(forTimeInterval: step)
            left -= step
        }
        return !isSet
    }
}

/// Runs `body` on a new thread (blocking C calls never occupy the cooperative pool).
func startThread(name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.name = name
    thread.start()
}

/// Reconnection delays: 0.5 s doubling up to a ceiling, reset after a success.
struct Backoff {
    var initialSeconds = 0.5
    var maximumSeconds = 8.0
    private(set) var nextSeconds = 0.5

    init(initialSeconds: Double = 0.5, maximumSeconds: Double = 8.0) {
        self.initialSeconds = initialSeconds
        self.maximumSeconds = maximumSeconds
        nextSeconds = initialSeconds
    }

    /// The delay to wait now; the next one is longer.
    mutating func next() -> Double {
        defer { nextSeconds = min(maximumSeconds, nextSeconds * 2) }
        return nextSeconds
    }

    mutating func reset() { nextSeconds = initialSeconds }
}

/// Reports an outage once (a retry loop must not flood), until a success resets it.
struct FailureReporter {
    private var reported = false

    /// Says `message` once until `reset`; `problem` (a few words for the status) goes first.
    mutating func report(_ message: String, problem: String? = nil, to continuation: AsyncStream<LocationEvent>.Continuation) {
        guard !reported else { return }
        reported = true
        if let problem { continuation.yield(.problem(problem)) }
        continuation.yield(.unavailable(message))
    }

    mutating func reset() { reported = false }

    /// Whether a failure was said since the last `reset`.
    var hasReported: Bool { reported }
}

/// Back-pressure for a source thread that can outrun its consumer: the producer waits while
/// `window` events are unconsumed; the consumer's side releases one per event it takes.
final class FlowGate: @unchecked Sendable {
    // A counter under a condition, not a DispatchSemaphore: libdispatch traps when a semaphore
    // is released below its initial value, which a consumer that stops early leaves it at.
    private let condition = NSCondition()
    private var free: Int

    init(window: Int) { free = window }

    /// Waits for room (checking `stop` every 50 ms); false when asked to stop meanwhile.
    func acquire(unless stop: StopFlag) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while free == 0 {
            if stop.isSet { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        free -= 1
        return true
    }

    func release() {
        condition.lock()
        free += 1
        condition.signal()
        condition.unlock()
    }

    /// The stream the consumer iterates: each event taken frees a slot.
    func consuming(_ inner: AsyncStream<LocationEvent>) -> AsyncStream<LocationEvent> {
        let iterator = IteratorBox(inner.makeAsyncIterator())
        return AsyncStream(unfolding: { [self] in
            let event = await iterator.next()
            if event != nil { release() }
            return event
        })
    }

    private final class IteratorBox: @unchecked Sendable {
        var iterator: AsyncStream<LocationEvent>.Iterator
        init(_ iterator: AsyncStream<LocationEvent>.Iterator) { self.iterator = iterator }
        func next() async -> LocationEvent? { await iterator.next() }
    }
}

/// A source thread's continuation behind a `FlowGate`: every event waits for room.
struct GatedContinuation: Sendable {
    let continuation: AsyncStream<LocationEvent>.Continuation
    let gate: FlowGate
    let stop: StopFlag

    /// Yields once there is room; false when the consumer has gone.
    @discardableResult
    func yield(_ event: LocationEvent) -> Bool {
        guard gate.acquire(unless: stop) else { return false }
        continuation.yield(event)
        return true
    }
}
