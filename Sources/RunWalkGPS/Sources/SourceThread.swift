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

    mutating func report(_ message: String, to continuation: AsyncStream<LocationEvent>.Continuation) {
        guard !reported else { return }
        reported = true
        continuation.yield(.unavailable(message))
    }

    mutating func reset() { reported = false }
}
