/// One GPS gap as a report tells it: when, how long, why, and how the distance across it was
/// counted, read from the summary's gap and the recorded track on either side of it.
///
/// The live filter bridges a gap from the speeds before and after it over its duration, never
/// less than the straight line between its ends (less its uncertainty) nor more than a half
/// circle over it; what it counted is the track's distance at the first point after the gap
/// minus that at the last point before.
public struct GPSGapAccount: Sendable, Equatable {
    /// How the distance across the gap came about.
    public enum Estimate: Sendable, Equatable {
        /// No position before the gap (no fix yet since the start): nothing to bridge.
        case noPositionBefore
        /// The GPS did not come back before the end: nothing counted after the gap began.
        case notBack
        /// No track on either side to tell (a summary without its track): the rule only.
        case unknown
        /// Nothing counted across it (standing on both sides, paused through it, or a new segment).
        case nothing(straightMetres: Double)
        /// About the straight line between the positions either side (within 3 %, or 3 m).
        case straightLine(metres: Double)
        /// From the speeds before and after over its duration: more than the straight line (a bend).
        case speeds(metres: Double, straightMetres: Double)
        /// Less than the straight line (a pause in it, or the positions' uncertainty).
        case lessThanStraight(metres: Double, straightMetres: Double)
    }

    /// Seconds from the workout's start.
    public var startSeconds: Double
    /// Nil when the GPS did not come back.
    public var endSeconds: Double?
    public var reason: GPSGap.Reason
    public var estimate: Estimate

    /// How long it lasted, seconds (nil when the GPS did not come back).
    public var durationSeconds: Double? { endSeconds.map { max(0, $0 - startSeconds) } }

    /// The distance counted across the gap, metres, when the track tells it.
    public var countedMetres: Double? {
        switch estimate {
        case .noPositionBefore, .notBack, .nothing: return 0
        case .unknown: return nil
        case .straightLine(let metres), .speeds(let metres, _), .lessThanStraight(let metres, _): return metres
        }
    }

    public init(startSeconds: Double, endSeconds: Double?, reason: GPSGap.Reason, estimate: Estimate) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.reason = reason
        self.estimate = estimate
    }

    /// The summary's gaps with their accounts; `track` in time order (empty: `.unknown` where
    /// positions came back). A gap that ended within half a second of its start (the workout
    /// began on the first fix) is a moment, not a gap: left out.
    public static func accounts(_ summary: Summary, track: [TrackPoint]) -> [GPSGapAccount] {
        (summary.gpsGaps ?? []).filter { gap in gap.endSeconds.map { $0 - gap.startSeconds >= 0.5 } ?? true }.map { gap in
            GPSGapAccount(startSeconds: gap.startSeconds, endSeconds: gap.endSeconds, reason: gap.reason,
                          estimate: estimate(gap, track: track))
        }
    }

    static func estimate(_ gap: GPSGap, track: [TrackPoint]) -> Estimate {
        guard let end = gap.endSeconds else { return .notBack }
        if gap.reason == .noFixYet { return .noPositionBefore }
        // Times are rounded to the millisecond in the summary: a little slack on both sides.
        let slack = 0.0015
        guard let before = track.last(where: { $0.elapsedSeconds <= gap.startSeconds + slack }) else {
            return track.isEmpty ? .unknown : .noPositionBefore
        }
        guard let after = track.first(where: { $0.elapsedSeconds >= end - slack && $0.elapsedSeconds > before.elapsedSeconds }) else {
            return .notBack
        }
        let counted = max(0, after.distanceMetres - before.distanceMetres)
        let straight = Geodesy.distance(latitude1: before.latitude, longitude1: before.longitude,
                                        latitude2: after.latitude, longitude2: after.longitude)
        if counted < 1 { return .nothing(straightMetres: straight) }
        if abs(counted - straight) <= max(3, 0.03 * straight) { return .straightLine(metres: counted) }
        return counted > straight ? .speeds(metres: counted, straightMetres: straight)
            : .lessThanStraight(metres: counted, straightMetres: straight)
    }

    /// Why, in words: `signal lost`, `no fix yet`.
    public var reasonText: String {
        switch reason {
        case .signalLost: return "signal lost"
        case .noFixYet: return "no fix yet"
        }
    }

    /// How the distance across it was counted, in words, e.g. `118 m counted from the speeds
    /// before and after (straight line 105 m)`.
    public func estimateText(_ units: Units) -> String {
        func length(_ metres: Double) -> String {
            units == .metric ? "\(Int(metres.rounded())) m" : "\(Int((metres / 0.9144).rounded())) yd"
        }
        switch estimate {
        case .noPositionBefore: return "no position before it: nothing to bridge"
        case .notBack: return "the GPS did not come back: nothing counted after it began"
        case .unknown: return "bridged from the speeds before and after, at least the straight line between its ends"
        case .nothing(let straight):
            return "nothing counted (standing, paused or a new segment; straight line \(length(straight)))"
        case .straightLine(let metres): return "\(length(metres)) counted, the straight line between its ends"
        case .speeds(let metres, let straight):
            return "\(length(metres)) counted from the speeds before and after (straight line \(length(straight)))"
        case .lessThanStraight(let metres, let straight):
            return "\(length(metres)) counted, less than the straight line of \(length(straight)) (a pause in it, or the positions' uncertainty)"
        }
    }
}
