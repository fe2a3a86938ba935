#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exponential moving average of speed with a time constant in seconds, not a sample
/// count, so 1 Hz and 10 Hz receivers give the same curve.
public struct PaceEMA: Sendable {
    public let timeConstantSeconds: Double
    public private(set) var speedMetresPerSecond: Double?
    private var lastTime: Duration?

    public init(timeConstantSeconds: Double = 6) {
        self.timeConstantSeconds = timeConstantSeconds
    }

    /// Adds a speed sample taken at `time`.
    public mutating func add(speedMetresPerSecond speed: Double, at time: Duration) {
        defer { lastTime = time }
        guard let current = speedMetresPerSecond, let lastTime else {
            speedMetresPerSecond = speed
            return
        }
        let dt = max(0, (time - lastTime).seconds)
        let alpha = 1 - exp(-dt / timeConstantSeconds)
        speedMetresPerSecond = current + alpha * (speed - current)
    }

    /// Seconds per kilometre, nil while (nearly) standing.
    public var paceSecondsPerKm: Double? {
        guard let speed = speedMetresPerSecond, speed >= 0.3 else { return nil }
        return 1000 / speed
    }
}
