/// The live splits' announcements: each said at the fix that completes it, or at the instant
/// predicted between two fixes (`SplitForecast`), which pauses, skips, restarts, stops and a lost
/// GPS drop when it has not come yet.
extension SessionRunner {
    /// A split and its cue ("Kilometre k …"), said at `clock`.
    mutating func announce(_ split: Split, at clock: Duration) -> [SessionEvent] {
        let heartRate = options.saysHeartRateAtSplits ? currentHeartRate(at: clock) : nil
        return [.split(split)] + voice.cues(for: split, engine: engine, heartRateBPM: heartRate).map(SessionEvent.cue)
    }

    /// The split predicted between two fixes, said at its instant (a paced replay's timer: its
    /// track's clock moves only with its fixes). Nothing when none is pending.
    public mutating func sayDueSplit() -> [SessionEvent] {
        guard let due = session.splitForecast.dueSeconds else { return [] }
        return sayDueSplit(at: .seconds(double: due))
    }

    /// The split predicted between two fixes, once `clock` has come to its instant: said at that
    /// instant while the workout runs (a workout that ended before it drops it).
    mutating func sayDueSplit(at clock: Duration) -> [SessionEvent] {
        guard let due = session.splitForecast.dueSeconds, due <= clock.seconds else { return [] }
        guard engine.state == .active, !workoutEnds(before: due), let split = session.dueSplit(atSeconds: due) else {
            session.cancelSplitForecast()
            return []
        }
        return announce(split, at: .seconds(double: due))
    }

    /// Whether the workout's last phase ends by time before clock `seconds`.
    func workoutEnds(before seconds: Double) -> Bool {
        guard let index = engine.phaseIndex, index == workout.phases.count - 1, let end = engine.phaseEnd else { return false }
        return end.seconds < seconds
    }

    /// A predicted split due by `clock` is said; one not yet due is dropped (a pause, skip,
    /// restart, stop or loss of the GPS: the distance may not go on as predicted).
    mutating func settleSplitForecast(at clock: Duration) -> [SessionEvent] {
        let said = sayDueSplit(at: clock)
        session.cancelSplitForecast()
        return said
    }
}
