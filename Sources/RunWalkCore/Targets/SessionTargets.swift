/// One session's targets: the value each phase's band is measured by, the coach, the time in,
/// below and above each band, and the latest heart rate for the engine's `until hr` phases.
/// Pure: `SessionRunner` feeds it the engine's events, the telemetry's filtered pace and the
/// heart rate, with their clock times.
public struct SessionTargets: Sendable {
    /// A pace or heart rate older than this is not coached (GPS lost, strap quiet), seconds.
    public static let staleAfterSeconds = 3.0

    public private(set) var coach: TargetCoach
    public private(set) var tally = TargetTally()
    /// The latest heart rate fed in.
    public private(set) var heartRate: HeartRateReading?
    /// The filtered pace (nil while standing) and when it was seen, clock seconds.
    private var pace: (secondsPerKm: Double?, atSeconds: Double)?
    /// Times in, below and above per phase record, in the engine's record order (nil: no band).
    public private(set) var times: [TargetTally.Times?] = []
    /// The current phase's band, and where the runner is in it (nil without a band or a value).
    public private(set) var band: TargetBand?
    public private(set) var state: TargetState?

    public init(settings: TargetCoach.Settings = TargetCoach.Settings()) {
        coach = TargetCoach(settings: settings)
    }

    /// A phase starts.
    public mutating func begin(_ phase: PlannedPhase) {
        band = phase.band
        state = nil
        coach.begin(band: phase.band)
        tally.begin(band: phase.band)
    }

    /// A phase ended (completed, skipped, stopped or restarted) after `activeSeconds`.
    public mutating func finish(activeSeconds: Double) {
        times.append(tally.finish(activeSeconds: activeSeconds))
        band = nil
        state = nil
        coach.begin(band: nil)
    }

    /// The telemetry's filtered pace at `seconds` (nil while standing still).
    public mutating func pace(_ secondsPerKm: Double?, atSeconds seconds: Double) {
        pace = (secondsPerKm, seconds)
    }

    /// A heart-rate reading.
    public mutating func heartRate(_ reading: HeartRateReading) {
        if reading.time >= (heartRate?.time ?? reading.time) { heartRate = reading }
    }

    /// The value the current band is measured by at `seconds`, if there is a fresh one.
    public func value(atSeconds seconds: Double) -> Double? {
        guard let band else { return nil }
        if band.isHeartRate {
            guard let heartRate, seconds - heartRate.time.seconds <= Self.staleAfterSeconds else { return nil }
            return heartRate.bpm
        }
        guard let pace, seconds - pace.atSeconds <= Self.staleAfterSeconds else { return nil }
        return pace.secondsPerKm
    }

    /// One step while the workout is active: counts the time and asks the coach.
    /// `activeSeconds` is the phase's active time so far.
    public mutating func step(atSeconds seconds: Double, activeSeconds: Double) -> TargetCoach.Advice? {
        guard let band else { return nil }
        let value = value(atSeconds: seconds)
        state = value.map { band.state(of: $0) }
        tally.observe(value, activeSeconds: activeSeconds)
        return coach.observe(value, atSeconds: seconds)
    }

    /// While paused: nothing is counted, and the grace starts again on resuming.
    public mutating func idle() {
        if band != nil { _ = coach.observe(nil, atSeconds: 0) }
    }

    /// The coach's advice was said at `seconds`.
    public mutating func said(_ advice: TargetCoach.Advice, atSeconds seconds: Double) {
        coach.said(advice, atSeconds: seconds)
    }
}
