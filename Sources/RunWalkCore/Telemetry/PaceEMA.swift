#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exponential moving average of speed with a time constant in seconds, not a sample
/// count, so 1 Hz and 10 Hz receivers give the same curve.
///
/// A real change of pace (walk → run) would take the plain EMA more than two time constants
/// to follow, counting the runner's own 2–4 s speed-up. When the input stays far from the
/// average, on the same side, for `changeHoldSeconds`, the average follows with a third of
/// the time constant until it has caught up; noise does not stay on one side that long.
public struct PaceEMA: Sendable {
    public let timeConstantSeconds: Double
    public private(set) var speedMetresPerSecond: Double?
    /// A difference counts as a change above this many metres per second…
    public var changeThresholdMetresPerSecond = 0.4
    /// …and above this fraction of the average.
    public var changeThresholdFraction = 0.15
    /// How long a difference must last to be a change, seconds.
    public var changeHoldSeconds = 1.5
    private var lastTime: Duration?
    /// Seconds the input has been far above (positive) or below (negative) the average.
    private var farSeconds = 0.0

    public init(timeConstantSeconds: Double = 6) {
        self.timeConstantSeconds = timeConstantSeconds
    }

    /// Whether the average is following a detected change of pace (short time constant).
    public var following: Bool { abs(farSeconds) >= changeHoldSeconds }

    /// Adds a speed sample taken at `time`.
    public mutating func add(speedMetresPerSecond speed: Double, at time: Duration) {
        defer { lastTime = time }
        guard let current = speedMetresPerSecond, let lastTime else {
            speedMetresPerSecond = speed
            return
        }
        let dt = max(0, (time - lastTime).seconds)
        let difference = speed - current
        let far = abs(difference) > max(changeThresholdMetresPerSecond, changeThresholdFraction * current)
        if !far {
            farSeconds = 0
        } else if (difference > 0) == (farSeconds >= 0) {
            farSeconds += difference > 0 ? dt : -dt
        } else {
            farSeconds = difference > 0 ? dt : -dt
        }
        let tau = following ? timeConstantSeconds / 3 : timeConstantSeconds
        let alpha = 1 - exp(-dt / tau)
        speedMetresPerSecond = current + alpha * difference
    }

    /// Seconds per kilometre, nil while (nearly) standing.
    public var paceSecondsPerKm: Double? {
        guard let speed = speedMetresPerSecond, speed >= 0.3 else { return nil }
        return 1000 / speed
    }
}
