import RunWalkCore

/// The workout's last moment, live: the wait for the fix taken at the workout's end.
extension SessionDriver {
    /// Live, a fix reaches the loop some time after the receiver took it. When the workout's last
    /// phase ends by time, the fix taken at its end comes just after it: without a short wait, a
    /// live session would lose the last stretch that a replay of the same track counts. The
    /// wait is at most one receiver interval and a half after the fix before.
    static let endHoldCadences = 1.5
    /// Receiver intervals beyond this are not waited for (a slow receiver or a lost signal).
    static let endHoldLongestCadence: Duration = .seconds(2)

    /// The wait at the end of the workout, judged from the fixes so far (it stands until the next
    /// fix comes or the workout ends, so nothing about it needs to be kept).
    func plannedHold() -> (end: Duration, until: Duration)? {
        guard case .session = settings.clock, gpsState == .fix, let end = timedWorkoutEnd,
              let last = lastArrival, let cadence, cadence > .zero, cadence <= Self.endHoldLongestCadence
        else { return nil }
        // The next fix is expected one interval after the last came; it was taken by the end if it
        // comes no later than half an interval after it.
        guard last.clock < end, last.clock + cadence <= end + cadence / 2 else { return nil }
        return (end, last.clock + cadence * Self.endHoldCadences)
    }

    /// Whether a fix that came at or after the workout's end was taken by it: its time after the
    /// fix before is within the session time from that fix's arrival to the end (half an interval
    /// of jitter allowed).
    func belongsBefore(_ end: Duration, _ fix: Fix) -> Bool {
        guard let last = lastArrival, let cadence, fix.time > last.stamp else { return false }
        return fix.time.since(last.stamp) <= end - last.clock + cadence / 2
    }

    /// The end of the workout on the session clock, while its last phase runs and ends by time.
    private var timedWorkoutEnd: Duration? {
        let engine = runner.engine
        guard engine.state == .active, let index = engine.phaseIndex, index == engine.workout.phases.count - 1,
              case .duration = engine.workout.phases[index].target else { return nil }
        return engine.phaseEnd
    }

    /// The session clock to move the runner to at `time`: held just short of the workout's end
    /// while the fix taken at the end is waited for.
    func heldClock(_ time: Duration) -> Duration {
        guard let hold = plannedHold(), time >= hold.end, time < hold.until else { return time }
        return hold.end - Self.justBefore
    }

    /// How far short of its end the workout is held (the engine ends a phase once its end is reached).
    static let justBefore: Duration = .microseconds(1)
}
