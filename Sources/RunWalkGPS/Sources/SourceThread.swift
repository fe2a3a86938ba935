import RunWalkIO
import RunWalkRuntime
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A flag a consumer sets to ask a source's thread to finish. It is also a descriptor that
/// becomes readable when set, so a source blocks in `poll(2)` on its input and this together
/// (no periodic wake-up to look at the flag: each one costs a handheld's battery).
final class StopFlag: @unchecked Sendable {
    private let lock = Lock()
    private var stopped = false
    /// A pipe: `set()` writes a byte into it, so its read end polls readable from then on.
    private let ends: (read: Int32, write: Int32)

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC); _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        }
        ends = (fds[0], fds[1])
    }

    deinit {
        if ends.read >= 0 { close(ends.read) }
        if ends.write >= 0 { close(ends.write) }
    }

    var isSet: Bool { lock.withLock { stopped } }

    func set() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if first, ends.write >= 0 {
            var byte: UInt8 = 1
            _ = write(ends.write, &byte, 1)
        }
    }

    /// Readable once the flag is set (-1 when no pipe could be made).
    var descriptor: Int32 { ends.read }

    /// Waits until `fd` is readable or the flag is set, at most `seconds` (nil: no limit).
    /// Returns `.readable`, `.stopped` or `.timedOut`.
    func wait(readable fd: Int32, seconds: Double?) -> WaitResult {
        if isSet { return .stopped }
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        while true {
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { return .timedOut }
                timeout = Int32(min(left * 1000, Double(Int32.max)).rounded(.up))
            }
            // Without a pipe, fall back to looking at the flag every 50 ms.
            if descriptor < 0 { timeout = timeout < 0 ? 50 : min(timeout, 50) }
            let ready = poll(&fds, 2, timeout)
            if isSet { return .stopped }
            if ready < 0 && errno != EINTR { return .readable }
            if ready > 0 && fds[1].revents != 0 { return .readable }
            if ready == 0, let deadline, deadline.timeIntervalSinceNow <= 0 { return .timedOut }
        }
    }

    enum WaitResult { case readable, stopped, timedOut }

    /// Sleeps up to `seconds` (woken at once by `set()`); returns false if asked to stop meanwhile.
    func sleep(seconds: Double) -> Bool {
        if descriptor < 0 {
            var left = seconds
            while left > 0 {
                if isSet { return false }
                let step = min(left, 0.05)
                usleep(UInt32(step * 1_000_000))
                left -= step
            }
            return !isSet
        }
        return wait(readable: -1, seconds: seconds) != .stopped
    }
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
        report(message, problem: problem) { continuation.yield($0) }
    }

    /// As above, to any receiver of events.
    mutating func report(_ message: String, problem: String? = nil, to emit: (LocationEvent) -> Void) {
        guard !reported else { return }
        reported = true
        if let problem { emit(.problem(problem)) }
        emit(.unavailable(message))
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
    private let condition = Condition()
    private var free: Int

    init(window: Int) { free = window }

    /// Waits for room (checking `stop` every 50 ms); false when asked to stop meanwhile.
    func acquire(unless stop: StopFlag) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while free == 0 {
            if stop.isSet { return false }
            condition.wait(seconds: 0.05)
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
