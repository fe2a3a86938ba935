import RunWalkCore

/// The one GPS-lost detector: positions stop for longer than the source's own cadence
/// allows (or the source says it is gone) and the GPS counts as lost until the next position.
///
/// The threshold follows the track: at least `minimumSeconds`, and at least `cadenceFactor`
/// times the typical interval between positions, so a watch that records every 5 s is not
/// "lost" between its points. Pure: every call says when it happened.
public struct GPSWatch: Sendable, Equatable {
    /// No position for at least this long (session seconds) counts as lost.
    public var minimumSeconds: Double
    /// …and for at least this many typical intervals between positions.
    public var cadenceFactor = 2.5
    /// With a clock running faster than real time: also at least this much real time, so that
    /// scheduling jitter is not taken for a lost signal.
    public var minimumRealSeconds = 0.0
    /// Session seconds per real second (1 live and in tests).
    public var clockScale = 1.0

    public private(set) var lastPositionSeconds: Double?
    /// The typical interval between positions (the median of the recent ones), seconds.
    public private(set) var typicalIntervalSeconds: Double?
    private var recentIntervals: [Double] = []

    public init(minimumSeconds: Double) {
        self.minimumSeconds = minimumSeconds
    }

    /// The interval assumed before two positions have shown the real one, seconds: a watch that
    /// records every 5 s must not be "lost" after its first point.
    public var assumedIntervalSeconds = 4.0

    /// How long without a position counts as lost, seconds.
    public var thresholdSeconds: Double {
        var threshold = max(minimumSeconds, cadenceFactor * (typicalIntervalSeconds ?? assumedIntervalSeconds))
        if clockScale > 1 { threshold = max(threshold, minimumRealSeconds * clockScale) }
        return threshold
    }

    /// A position arrived at `seconds`.
    public mutating func position(at seconds: Double) {
        if let last = lastPositionSeconds, seconds > last {
            recentIntervals.append(seconds - last)
            if recentIntervals.count > 9 { recentIntervals.removeFirst() }
            typicalIntervalSeconds = recentIntervals.sorted()[recentIntervals.count / 2]
        }
        lastPositionSeconds = seconds
    }

    /// When the GPS counts as lost if no position comes first (nil before the first position).
    public var lostAtSeconds: Double? { lastPositionSeconds.map { $0 + thresholdSeconds } }
}
