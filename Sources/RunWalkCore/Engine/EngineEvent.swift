/// Why a phase ended.
public enum PhaseEndReason: String, Sendable, Codable, CaseIterable {
    /// The phase ran to its target.
    case completed
    /// The runner skipped to the next phase.
    case skipped
    /// The workout was stopped in it.
    case stopped
    /// The runner started it again: the same phase follows this record.
    case restarted
}

/// Something the engine did, stamped with the clock time at which it happened
/// (which may lie before the `now` of the call that reports it).
public enum EngineEvent: Sendable, Equatable {
    /// `secondsLeft` (3, 2, 1) before phase `nextIndex` starts; `nextIndex` is nil before the end.
    case countdown(secondsLeft: Int, nextIndex: Int?, at: Duration)
    case phaseStarted(index: Int, at: Duration)
    case halfway(index: Int, at: Duration)
    case phaseEnded(PhaseRecord)
    case paused(at: Duration)
    case resumed(at: Duration)
    case workoutCompleted(at: Duration)
    case workoutStopped(at: Duration)

    /// When the event happened on the engine's clock.
    public var time: Duration {
        switch self {
        case .countdown(_, _, let at), .phaseStarted(_, let at), .halfway(_, let at),
             .paused(let at), .resumed(let at), .workoutCompleted(let at), .workoutStopped(let at):
            return at
        case .phaseEnded(let record):
            return record.end
        }
    }
}

/// A phase as it was run.
public struct PhaseRecord: Sendable, Equatable {
    public var index: Int
    public var planned: PlannedPhase
    /// Clock time the phase started and ended.
    public var start: Duration
    public var end: Duration
    /// Time in the phase, not counting pauses.
    public var activeDuration: Duration
    /// Distance covered in the phase, not counting pauses, in metres.
    public var distanceMetres: Double
    public var reason: PhaseEndReason
}
