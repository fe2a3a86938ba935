/// One heart-rate value as the engine and the coach take it: beats per minute at a clock time.
///
/// The heart-rate source (a strap, a watch's file) is an adapter's business; the core sees
/// only these values, one per tick or per sample.
public struct HeartRateReading: Sendable, Equatable {
    public var bpm: Double
    /// When it was measured, on the engine's clock.
    public var time: Duration

    public init(bpm: Double, time: Duration) {
        self.bpm = bpm
        self.time = time
    }
}

extension WorkoutEngine {
    /// A reading older than this does not end an `until hr` phase (a strap gone quiet).
    public static let heartRateStaleAfter: Duration = .seconds(5)

    /// When the current `until hr` phase ends on the heart rate, if it does before `end`
    /// (its `max`) and by `now`: at the reading that reaches the threshold, or when its `min`
    /// has passed if the latest reading reached it earlier.
    func heartRateEnd(of index: Int, before end: Duration, now: Duration) -> Duration? {
        guard state == .active, let until = workout.phases[index].until,
              let reading = heartRate, reading.time > phaseStart, until.isReached(by: reading.bpm) else { return nil }
        let earliest = phaseStart + pausedInPhaseForCondition + (until.minimum ?? .zero)
        let at = max(reading.time, earliest)
        guard at <= now, at < end, at - reading.time <= Self.heartRateStaleAfter else { return nil }
        return at
    }
}

extension Workout {
    /// True when some phase ends on the heart rate.
    public var hasHeartRateConditions: Bool { phases.contains { $0.until != nil } }

    /// True when some phase has a heart-rate band to coach.
    public var hasHeartRateBands: Bool { phases.contains { $0.band?.isHeartRate == true } }

    /// Why this workout cannot start without a heart rate, or nil when it can: every `until hr`
    /// phase needs a `max` to fall back on.
    public func heartRateProblem(hasHeartRateSource: Bool) -> String? {
        guard !hasHeartRateSource else { return nil }
        let open = phases.enumerated().filter { $0.element.until != nil && $0.element.until?.maximum == nil }
        guard let first = open.first else { return nil }
        let text = "\(first.element.kind.rawValue) \(first.element.until?.specText ?? "")"
        return "the workout's phase \(first.offset + 1) (\"\(text)\") ends on the heart rate and there is no "
            + "heart-rate source: give each \"until hr\" a \"max\" bound (e.g. \"\(text) max 5m\") to fall back on"
    }
}
