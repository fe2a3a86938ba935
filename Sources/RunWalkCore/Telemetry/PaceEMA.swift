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
/// average, on the same side, for `PaceChangeDetector.holdSeconds`, the average follows with a third of
/// the time constant until it has caught up; noise does not stay on one side that long.
public struct PaceEMA: Sendable {
    public let timeConstantSeconds: Double
    public private(set) var speedMetresPerSecond: Double?
    /// Tells a change of pace from noise.
    public var change = PaceChangeDetector()
    private var lastTime: Duration?

    public init(timeConstantSeconds: Double = 6) {
        self.timeConstantSeconds = timeConstantSeconds
    }

    /// Whether the average is following a detected change of pace (short time constant).
    public var following: Bool { change.following }

    /// Adds a speed sample taken at `time`.
    public mutating func add(speedMetresPerSecond speed: Double, at time: Duration) {
        defer { lastTime = time }
        guard let current = speedMetresPerSecond, let lastTime else {
            speedMetresPerSecond = speed
            return
        }
        let dt = max(0, (time - lastTime).seconds)
        let difference = speed - current
        change.observe(difference, current: current, dt: dt)
        let tau = following ? timeConstantSeconds / 3 : timeConstantSeconds
        let alpha = 1 - exp(-dt / tau)
        speedMetresPerSecond = current + alpha * difference
    }

    /// Seconds per kilometre, nil while (nearly) standing.
    public var paceSecondsPerKm: Double? { PaceChangeDetector.pace(speedMetresPerSecond) }
}

/// Tells a real change of pace from noise: the input stays far from the estimate, on the
/// same side, for `holdSeconds`; noise does not stay on one side that long.
public struct PaceChangeDetector: Sendable {
    /// A difference counts as a change above this many metres per second…
    public var thresholdMetresPerSecond = 0.4
    /// …and above this fraction of the estimate.
    public var thresholdFraction = 0.15
    /// How long a difference must last to be a change, seconds.
    public var holdSeconds = 1.5
    /// Seconds the input has been far above (positive) or below (negative) the estimate.
    private var farSeconds = 0.0

    public init() {}

    /// Whether a change is being followed.
    public var following: Bool { abs(farSeconds) >= holdSeconds }

    /// Counts how long the input (`difference` from the estimate `current`) has stayed far on one side.
    public mutating func observe(_ difference: Double, current: Double, dt: Double) {
        let far = abs(difference) > max(thresholdMetresPerSecond, thresholdFraction * current)
        if !far {
            farSeconds = 0
        } else if (difference > 0) == (farSeconds >= 0) {
            farSeconds += difference > 0 ? dt : -dt
        } else {
            farSeconds = difference > 0 ? dt : -dt
        }
    }

    /// Seconds per kilometre for `speed`, nil while (nearly) standing.
    static func pace(_ speed: Double?) -> Double? {
        guard let speed, speed >= 0.3 else { return nil }
        return 1000 / speed
    }
}
