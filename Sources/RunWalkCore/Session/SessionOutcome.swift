/// How a session ended; the summary's `state`.
public enum SessionOutcome: String, Sendable, Codable, CaseIterable {
    /// Every phase ran to its end.
    case completed
    /// The runner stopped it.
    case stopped
    /// The track (or source) ended before the workout did.
    case incomplete
    /// A crash ended it; the summary was rebuilt from what was recorded.
    case interrupted
    /// Still running (a summary taken mid-session).
    case inProgress = "in_progress"

    /// How a person would say it: "Completed", "Stopped early", …
    public var title: String {
        switch self {
        case .completed: return "Completed"
        case .stopped: return "Stopped early"
        case .incomplete: return "Track ended early"
        case .interrupted: return "Interrupted (recovered after a crash)"
        case .inProgress: return "In progress"
        }
    }
}

/// Something that happened to a session, as recorded and listed in the summary.
public enum SessionEventKind: String, Sendable, Codable, CaseIterable {
    case start, pause, resume
    case autoPause = "auto_pause", autoResume = "auto_resume"
    case skip, restart
    case gpsNoFixYet = "gps_no_fix_yet", gpsLost = "gps_lost", gpsBack = "gps_back"
    case completed, stopped
    /// The heart-rate strap went away (out of range, flat, no contact) and came back.
    case heartRateLost = "hr_lost", heartRateBack = "hr_back"
}

/// One recorded happening: its kind, when (seconds from the workout's start) and in which phase.
public struct SessionEventRecord: Sendable, Equatable, Codable {
    public var kind: SessionEventKind
    public var atSeconds: Double
    public var phaseIndex: Int?

    public init(kind: SessionEventKind, atSeconds: Double, phaseIndex: Int?) {
        self.kind = kind
        self.atSeconds = atSeconds
        self.phaseIndex = phaseIndex
    }

    enum CodingKeys: String, CodingKey { case kind, atSeconds = "at_s", phaseIndex = "phase" }
}
