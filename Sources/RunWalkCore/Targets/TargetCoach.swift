/// Decides when to tell the runner that they are outside the phase's band. Pure: each call
/// says when it happened; the values are the telemetry's filtered pace (the EMA, never a raw
/// fix) or the latest heart rate.
///
/// - A cue only once the value has stayed outside the band, on the same side, for `graceSeconds`,
///   and is at least a margin outside it when said (5 s/km, 2 bpm).
/// - After a cue on one side, none on that side for `repeatSeconds`, unless it got worse: the
///   distance outside the band grew by the worse step since that cue (and `worseAfterSeconds`
///   passed); such an early cue is followed by the full quiet again.
/// - No value (standing still, auto-paused, no heart rate) is not coached, and starts the grace again.
/// - Whether a cue may be said now (away from transitions and countdowns) is the cue planner's
///   business: the coach proposes, and counts a cue only when `said` is called.
public struct TargetCoach: Sendable {
    /// The coach's timings.
    public struct Settings: Sendable, Equatable {
        /// How long the value must stay outside the band before a cue, seconds.
        public var graceSeconds: Double
        /// Quiet after a cue on the same side, seconds.
        public var repeatSeconds: Double
        /// Growth outside the band that counts as worse: seconds per km for pace (or this fraction
        /// of how far out it was at the last cue, if more: pace from a walking runner's GPS is noisy),
        /// bpm for heart rate.
        public var worsePaceSecondsPerKm: Double
        public var worsePaceFraction: Double
        public var worseHeartRateBpm: Double
        /// Even when worse, at least this long after the last cue on that side, seconds.
        public var worseAfterSeconds: Double
        /// Say "Back on target." when the runner returns after a cue (off by default).
        public var backInBand: Bool
        /// A cue needs the value at least this far outside the band when it is said (s/km, bpm):
        /// GPS noise at the band's edge is not worth a word.
        public var marginPaceSecondsPerKm: Double
        public var marginHeartRateBpm: Double

        public init(graceSeconds: Double = 20, repeatSeconds: Double = 30, worsePaceSecondsPerKm: Double = 15,
                    worsePaceFraction: Double = 0.5,
                    worseHeartRateBpm: Double = 5, worseAfterSeconds: Double = 10, backInBand: Bool = false,
                    marginPaceSecondsPerKm: Double = 5, marginHeartRateBpm: Double = 2) {
            self.graceSeconds = graceSeconds
            self.repeatSeconds = repeatSeconds
            self.worsePaceSecondsPerKm = worsePaceSecondsPerKm
            self.worsePaceFraction = worsePaceFraction
            self.worseHeartRateBpm = worseHeartRateBpm
            self.worseAfterSeconds = worseAfterSeconds
            self.backInBand = backInBand
            self.marginPaceSecondsPerKm = marginPaceSecondsPerKm
            self.marginHeartRateBpm = marginHeartRateBpm
        }
    }

    /// What the coach wants said.
    public enum Advice: Sendable, Equatable {
        /// Below the band (too slow, or heart rate too low): the current pace or heart rate.
        case speedUp(TargetBand, value: Double)
        /// Above the band (too fast, or heart rate too high).
        case slowDown(TargetBand, value: Double)
        /// Back in the band after a cue.
        case backInBand

        /// The side it is about (nil for back in band).
        public var side: TargetState? {
            switch self {
            case .speedUp: return .below
            case .slowDown: return .above
            case .backInBand: return nil
            }
        }
    }

    public let settings: Settings
    /// The band being coached (nil: nothing to coach).
    public private(set) var band: TargetBand?
    /// The side the value is on now, and since when (nil inside the band or without a value).
    public private(set) var outside: (side: TargetState, sinceSeconds: Double)?
    /// The last cue said on each side: when, and how far outside the band it was.
    private var lastSaid: [TargetState: (atSeconds: Double, excess: Double, early: Bool)] = [:]
    /// A cue was said in the current spell outside the band.
    private var cuedThisSpell = false

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// A new phase: its band (or none); the grace starts again, the quiet after earlier cues stays.
    public mutating func begin(band: TargetBand?) {
        self.band = band
        outside = nil
        cuedThisSpell = false
    }

    /// The value at `seconds` (nil when there is none to coach); returns advice to say now, if any.
    public mutating func observe(_ value: Double?, atSeconds seconds: Double) -> Advice? {
        guard let band else { return nil }
        guard let value else {
            outside = nil
            return nil
        }
        let side = band.state(of: value)
        if side == .in {
            let wasCued = outside != nil && cuedThisSpell
            outside = nil
            cuedThisSpell = false
            return wasCued && settings.backInBand ? .backInBand : nil
        }
        if outside?.side != side {
            outside = (side, seconds)
            cuedThisSpell = false
        }
        guard let spell = outside, seconds - spell.sinceSeconds >= settings.graceSeconds else { return nil }
        let excess = band.excess(of: value)
        guard excess >= (band.isHeartRate ? settings.marginHeartRateBpm : settings.marginPaceSecondsPerKm) else { return nil }
        var early = false
        if let last = lastSaid[side], seconds - last.atSeconds < settings.repeatSeconds {
            // One early cue for getting worse; after it, the full quiet again.
            guard !last.early else { return nil }
            early = true
            let step = band.isHeartRate
                ? settings.worseHeartRateBpm : max(settings.worsePaceSecondsPerKm, settings.worsePaceFraction * last.excess)
            guard seconds - last.atSeconds >= settings.worseAfterSeconds, excess >= last.excess + step else { return nil }
        }
        pendingEarly = early
        return side == .below ? .speedUp(band, value: value) : .slowDown(band, value: value)
    }

    /// Whether the advice last returned came early, for getting worse.
    private var pendingEarly = false

    /// The advice was said at `seconds`: the quiet on its side starts.
    public mutating func said(_ advice: Advice, atSeconds seconds: Double) {
        switch advice {
        case .speedUp(let band, let value), .slowDown(let band, let value):
            guard let side = advice.side else { return }
            lastSaid[side] = (seconds, band.excess(of: value), pendingEarly)
            cuedThisSpell = true
        case .backInBand:
            break
        }
    }
}
