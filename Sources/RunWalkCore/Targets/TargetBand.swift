/// The unit a pace was written in; the band keeps it so that it is shown and spoken as written.
public enum PaceUnit: String, Sendable, Equatable, Hashable, Codable {
    case km, mi

    /// Metres in one unit.
    public var metres: Double { self == .km ? 1000 : 1609.344 }
}

/// A band the runner should stay in during a phase: a pace band or a heart-rate band.
///
/// A single value (`@ 5:30/km`, `@ hr 145`) is a band around it: ± `paceTolerancePerUnit`
/// seconds per written unit, ± `heartRateTolerance` beats per minute.
public enum TargetBand: Sendable, Equatable, Hashable {
    /// Paces in seconds per kilometre, `fastest` ≤ `slowest`; `unit` is the unit it was written in.
    case pace(fastestSecondsPerKm: Double, slowestSecondsPerKm: Double, unit: PaceUnit)
    /// Heart rate in beats per minute, `low` ≤ `high`.
    case heartRate(low: Int, high: Int)

    /// A single pace's band: this many seconds per written unit either side of it.
    public static let paceTolerancePerUnit = 10.0
    /// A single heart rate's band: this many beats per minute either side of it.
    public static let heartRateTolerance = 5

    /// Where a measured value lies with respect to the band.
    ///
    /// For pace, "below" means slower than the band (the runner should speed up) and "above"
    /// faster (ease off), so that below/above read the same for pace and heart rate: below is
    /// too little effort, above too much.
    public func state(of value: Double) -> TargetState {
        switch self {
        case .pace(let fastest, let slowest, _):
            if value > slowest { return .below }
            if value < fastest { return .above }
            return .in
        case .heartRate(let low, let high):
            if value < Double(low) { return .below }
            if value > Double(high) { return .above }
            return .in
        }
    }

    /// How far outside the band a value is, in the band's own measure (seconds per km, bpm); 0 inside.
    public func excess(of value: Double) -> Double {
        switch self {
        case .pace(let fastest, let slowest, _): return max(0, value - slowest, fastest - value)
        case .heartRate(let low, let high): return max(0, Double(low) - value, value - Double(high))
        }
    }

    /// True for a heart-rate band.
    public var isHeartRate: Bool {
        if case .heartRate = self { return true }
        return false
    }

    /// The band as the spec writes it, without the `@`: `6:00-6:30/km`, `hr 140-150`.
    public var specText: String {
        switch self {
        case .pace(let fastest, let slowest, let unit):
            let f = TimeText.clock(fastest * unit.metres / 1000), s = TimeText.clock(slowest * unit.metres / 1000)
            return "\(f)-\(s)/\(unit.rawValue)"
        case .heartRate(let low, let high):
            return "hr \(low)-\(high)"
        }
    }}

/// Where the runner is with respect to a band.
public enum TargetState: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case below, `in`, above
}

/// A phase that ends when the heart rate reaches a threshold: `run until hr 150`,
/// `walk until hr below 110 max 2m`.
public struct HeartRateCondition: Sendable, Equatable, Hashable {
    /// Rising: the phase ends when the heart rate reaches the threshold from below.
    public enum Direction: String, Sendable, Equatable, Hashable {
        case rising, falling
    }

    public var thresholdBpm: Int
    public var direction: Direction
    /// True when the spec said `above`/`below`; false when it follows from the phase kind.
    public var explicit: Bool
    /// The phase lasts at least this long, whatever the heart rate.
    public var minimum: Duration?
    /// The phase ends after this long, whatever the heart rate (and without a heart rate).
    public var maximum: Duration?

    public init(thresholdBpm: Int, direction: Direction, explicit: Bool = false,
                minimum: Duration? = nil, maximum: Duration? = nil) {
        self.thresholdBpm = thresholdBpm
        self.direction = direction
        self.explicit = explicit
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The direction a phase kind implies: rising in a run or warm-up, falling in a walk or cool-down.
    public static func impliedDirection(for kind: PhaseKind) -> Direction {
        switch kind {
        case .run, .warmup: return .rising
        case .walk, .cooldown: return .falling
        }
    }

    /// True when `bpm` has reached the threshold in this condition's direction.
    public func isReached(by bpm: Double) -> Bool {
        direction == .rising ? bpm >= Double(thresholdBpm) : bpm <= Double(thresholdBpm)
    }

    /// How long a condition phase may last when no `max` is given: the phase's planned length
    /// as far as the rest of the program is concerned (the engine ends it on the heart rate).
    public static let unboundedLength: Duration = .seconds(6 * 3600)

    /// The condition as the spec writes it: `until hr 150`, `until hr below 110 max 2m`.
    public var specText: String {
        var text = "until hr "
        if explicit { text += direction == .rising ? "above " : "below " }
        text += "\(thresholdBpm)"
        if let minimum { text += " min \(Self.durationText(minimum))" }
        if let maximum { text += " max \(Self.durationText(maximum))" }
        return text
    }

    /// `90s`, `2m`, `2m30s`, `1h5m`: what the parser reads back to the same duration.
    static func durationText(_ duration: Duration) -> String {
        let total = Int(duration.seconds.rounded())
        let h = total / 3600, m = total % 3600 / 60, s = total % 60
        var text = ""
        if h > 0 { text += "\(h)h" }
        if m > 0 { text += "\(m)m" }
        if s > 0 || text.isEmpty { text += "\(s)s" }
        return text
    }
}

extension PlannedPhase {
    /// The phase's target and condition as the spec writes them (empty without either):
    /// `@ 6:00-6:30/km`, `until hr 150 max 5m`.
    public var targetSpecText: String {
        var parts: [String] = []
        if let until { parts.append(until.specText) }
        if let band { parts.append("@ " + band.specText) }
        return parts.joined(separator: " ")
    }
}
