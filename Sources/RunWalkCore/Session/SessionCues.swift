/// One session's cue timing: what the `CuePlanner` says for each engine event, split and GPS
/// change, placed around the boundary the engine is heading for, and the closing cue placed
/// ahead of the workout's end. Pure: the engine's state and the telemetry's figures come in.
public struct SessionCues: Sendable {
    /// Every cue placed so far, in order.
    public private(set) var cues: [Cue] = []
    private var planner: CuePlanner
    private let workout: Workout
    private let options: SessionOptions
    /// Session clock seconds at the workout's start (after the get-ready countdown).
    private let originSeconds: Double

    /// How long before the closing cue must start it is placed: fixes come at least once a second.
    static let closingLeadSeconds = 1.5

    /// The cues of `workout` run with `options`; `countdownSeconds` is the engine's.
    public init(workout: Workout, options: SessionOptions, countdownSeconds: Int) {
        self.workout = workout
        self.options = options
        originSeconds = options.getReady.seconds
        planner = CuePlanner(workout: workout, language: options.language, units: options.units,
                             enabled: options.enabledCues, timing: options.speechTiming,
                             countdownSeconds: countdownSeconds, introduction: options.introduction)
    }

    /// Cues for one engine event (with the totals when it completes the workout).
    public mutating func cues(for event: EngineEvent, engine: WorkoutEngine) -> [Cue] {
        var said = planner.cues(for: event, upcoming: upcomingBoundary(engine))
        if case .workoutCompleted(let at) = event {
            let total = engine.records.reduce(0) { $0 + $1.distanceMetres }
            said += planner.completion(atSeconds: at.seconds, distanceMetres: total, durationSeconds: at.seconds - originSeconds)
        }
        return record(said)
    }

    /// The split's cue, said at its crossing.
    public mutating func cues(for split: Split, engine: WorkoutEngine, heartRateBPM: Int? = nil) -> [Cue] {
        record(planner.cues(for: split, atSeconds: split.elapsedSeconds + originSeconds, upcoming: upcomingBoundary(engine),
                            heartRateBPM: heartRateBPM))
    }

    /// "GPS signal lost" or "GPS back" at clock time `seconds`.
    public mutating func gps(lost: Bool, reason: GPSGap.Reason, atSeconds seconds: Double, engine: WorkoutEngine) -> [Cue] {
        record(planner.gps(lost: lost, reason: reason, atSeconds: seconds, upcoming: upcomingBoundary(engine)))
    }

    /// "Heart rate lost." or "Heart rate back." at clock time `seconds`.
    public mutating func heartRateSensor(lost: Bool, atSeconds seconds: Double, engine: WorkoutEngine) -> [Cue] {
        record(planner.heartRateSensor(lost: lost, atSeconds: seconds, upcoming: upcomingBoundary(engine)))
    }

    /// Before a resume at `clock`: what the resume cue says is left of the phase.
    public mutating func prepareResume(at clock: Duration, engine: WorkoutEngine, activeDistanceMetres: Double) {
        planner.resumeContext = engine.currentPhase.map { phase in
            let remaining: PhaseTarget?
            if let left = engine.remaining(at: clock) {
                remaining = .duration(left)
            } else if let target = phase.target.distanceMetres {
                remaining = .distance(metres: max(0, target - engine.distanceInPhase(total: activeDistanceMetres)))
            } else {
                remaining = nil
            }
            return (phase.kind, remaining)
        }
    }

    /// Places the closing cue ahead of the workout's end so that it ends as the last phase does:
    /// a time phase's end is known, a distance phase's is estimated from the current pace
    /// `speed` (only while moving). The totals are those expected at that end; `distance` is
    /// the engine's distance now.
    public mutating func closing(atSeconds seconds: Double, engine: WorkoutEngine, speed: Double, distance: Double) -> [Cue] {
        guard engine.state == .active, let index = engine.phaseIndex, index == workout.phases.count - 1,
              !planner.closed else { return [] }
        let end: Double, distanceAtEnd: Double
        switch workout.phases[index].target {
        case .duration:
            guard let phaseEnd = engine.phaseEnd else { return [] }
            end = phaseEnd.seconds
            distanceAtEnd = distance + speed * max(0, end - seconds)
        case .distance(let metres):
            guard speed >= options.movingSpeedThreshold else { return [] }
            let remaining = max(0, metres - engine.distanceInPhase(total: distance))
            end = seconds + remaining / speed
            distanceAtEnd = distance + remaining
        }
        return record(planner.closing(endingAt: end, nowSeconds: seconds, distanceMetres: distanceAtEnd,
                                      durationSeconds: end - originSeconds, leadSeconds: Self.closingLeadSeconds))
    }

    /// A coaching cue at `seconds`, if the planner lets it be said now. The boundary it keeps
    /// clear of is the time phase's end, or a distance phase's end estimated from `speed`.
    public mutating func target(_ advice: TargetCoach.Advice, atSeconds seconds: Double, engine: WorkoutEngine,
                                speed: Double, distance: Double) -> [Cue] {
        var upcoming: Double?
        if let phase = engine.currentPhase {
            if let until = phase.until {
                upcoming = until.maximum.flatMap { _ in engine.phaseEnd?.seconds }
            } else if let metres = phase.target.distanceMetres {
                let left = max(0, metres - engine.distanceInPhase(total: distance))
                upcoming = speed > 0.3 ? seconds + left / speed : nil
            } else {
                upcoming = engine.phaseEnd?.seconds
            }
        }
        return record(planner.target(advice, atSeconds: seconds, upcomingSeconds: upcoming))
    }

    /// The time boundary the engine is heading for, for the cue planner's reservations.
    private func upcomingBoundary(_ engine: WorkoutEngine) -> CuePlanner.Boundary? {
        guard let end = engine.phaseEnd else { return nil }
        let next = engine.state == .countdown ? 0 : engine.phaseIndex.map { $0 + 1 }
        return CuePlanner.Boundary(seconds: end.seconds, nextIndex: next.flatMap { $0 < workout.phases.count ? $0 : nil })
    }

    private mutating func record(_ new: [Cue]) -> [Cue] {
        cues += new
        return new
    }
}
