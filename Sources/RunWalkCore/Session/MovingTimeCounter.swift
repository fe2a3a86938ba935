/// Moving time: the time between consecutive used fixes, counted while the workout runs and
/// the runner moves. The live session and the store's rebuild of a crashed one both count
/// with this, fix by fix, so the two agree.
public struct MovingTimeCounter: Sendable, Equatable {
    /// The longest step between used fixes that is counted, seconds: beyond it the receiver
    /// was silent (a tunnel, a dropout), and the fix's speed says nothing about the gap.
    public static let longestStepSeconds = 10.0

    /// Speed at or above which a step counts as moving, metres per second.
    public let thresholdMetresPerSecond: Double
    /// Moving time so far, seconds.
    public private(set) var seconds = 0.0
    /// Clock time of the last used fix, seconds (running or not: a step is timed from it).
    private var lastUsedSeconds: Double?

    /// A counter with its moving threshold (`SessionOptions.movingSpeedThreshold`).
    public init(thresholdMetresPerSecond: Double) {
        self.thresholdMetresPerSecond = thresholdMetresPerSecond
    }

    /// Adds one fix at clock time `atSeconds`: `used` when the telemetry used its position,
    /// `speed` the filtered speed then, `counting` while the workout runs (not paused, not over).
    public mutating func add(atSeconds: Double, used: Bool, speedMetresPerSecond speed: Double?, counting: Bool) {
        guard used else { return }
        if counting, let last = lastUsedSeconds, (speed ?? 0) >= thresholdMetresPerSecond {
            seconds += max(0, min(atSeconds - last, Self.longestStepSeconds))
        }
        lastUsedSeconds = atSeconds
    }
}
