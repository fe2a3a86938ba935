import RunWalkCore

/// What the finished page shows for a summary: the headline figures, the per-interval
/// planned-versus-actual table and the splits.
public struct FinishedPageModel: Equatable, Sendable {
    /// One row of the interval table.
    public struct Interval: Equatable, Sendable {
        /// The interval's number, from 1.
        public var number: String
        /// The phase in words.
        public var phase: String
        /// What was planned: a time or a distance.
        public var planned: String
        /// The time it took.
        public var actual: String
        /// The distance covered in it.
        public var distance: String
        /// Its average pace.
        public var pace: String
        /// "skipped", "stopped", "restarted" or "" when the phase ran to its target.
        public var note: String
    }

    /// One row of the splits table.
    public struct Split: Equatable, Sendable {
        /// The split's number (kilometre or mile), from 1.
        public var number: String
        /// Where the split ends.
        public var distance: String
        /// The split's own time.
        public var time: String
        /// Its pace.
        public var pace: String
    }

    /// "Workout complete", "Workout stopped", or how the session ended otherwise.
    public var title: String
    /// The workout as given.
    public var workout: String
    /// The distance: the page's largest figure.
    public var distance: String
    /// Workout time (pauses excluded).
    public var duration: String
    /// Average pace.
    public var averagePace: String
    /// "Elapsed 41:02 · paused 1:02".
    public var detail: String
    /// One row per phase run.
    public var intervals: [Interval]
    /// One row per full kilometre (or mile).
    public var splits: [Split]

    /// The page for `summary`.
    public init(_ summary: Summary) {
        let units = summary.units
        switch summary.state {
        case .completed: title = "Workout complete"
        case .stopped: title = "Workout stopped"
        case .incomplete: title = "Track ended early"
        case .interrupted: title = "Recovered workout"
        default: title = "Workout ended"
        }
        workout = summary.workout
        distance = Format.distance(summary.distanceMetres, units)
        duration = TimeText.clock(summary.durationSeconds)
        averagePace = Format.pace(summary.averagePaceSecondsPerKm, units)
        detail = "Elapsed " + TimeText.clock(summary.elapsedSeconds)
            + (summary.pausedSeconds >= 1 ? " · paused " + TimeText.clock(summary.pausedSeconds) : "")
        intervals = summary.phases.map { phase in
            let planned = phase.planned.durationSeconds.map { TimeText.clock($0) }
                ?? phase.planned.distanceMetres.map(Format.metres) ?? ""
            return Interval(number: "\(phase.index + 1)", phase: PhaseLook.word(phase.kind), planned: planned,
                            actual: TimeText.clock(phase.durationSeconds), distance: Format.metres(phase.distanceMetres),
                            pace: Format.pace(phase.averagePaceSecondsPerKm, units),
                            note: phase.endReason == .completed ? "" : phase.endReason.rawValue)
        }
        splits = summary.splits.map { split in
            Split(number: "\(split.index)", distance: Format.distance(split.distanceMetres, units),
                  time: TimeText.clock(split.splitSeconds), pace: Format.pace(split.paceSecondsPerKm, units))
        }
    }
}
