/// What a cue is about; each kind can be switched off.
public enum CueKind: String, Sendable, Codable, CaseIterable {
    case transition, countdown, halfway, split, summary, gps, pauseResume = "pause_resume", complete
    /// Coaching to the phase's band ("Speed up, …"); `targetBack` is "Back on target." (off by default).
    case target, targetBack = "target_back"
    /// "Heart rate lost." / "Heart rate back." for a live strap (`HeartRateSensorWatch`).
    case heartRateSensor = "hr_sensor"

    /// How the speech queue treats this kind when it meets another.
    public var priority: CuePriority {
        switch self {
        case .countdown, .transition: return .onTheBeat
        case .complete, .pauseResume, .gps, .heartRateSensor: return .prompt
        case .halfway, .split, .summary, .target, .targetBack: return .background
        }
    }

    /// Kinds a runner hears unless they switch them off (per-interval summaries are opt-in).
    public static let defaultEnabled: Set<CueKind> = Set(allCases).subtracting([.summary, .targetBack])
}

/// How urgent a cue is when the speech queue is busy.
public enum CuePriority: Int, Sendable, Comparable {
    /// Whatever else is said may be delayed or dropped, never these.
    case background
    /// Said as soon as the queue is free, dropped when stale.
    case prompt
    /// Bound to a moment (a boundary, a second of the countdown): on time or not at all.
    case onTheBeat

    public static func < (a: CuePriority, b: CuePriority) -> Bool { a.rawValue < b.rawValue }
}

/// Something to say, and when (clock seconds of the session).
public struct Cue: Sendable, Equatable {
    /// When the utterance starts.
    public var atSeconds: Double
    public var text: String
    public var kind: CueKind
    /// The moment the cue is about: its first (key) word starts here — the phase boundary
    /// for a transition, the second for a countdown number; for other cues the moment
    /// they were asked for.
    public var anchorSeconds: Double
    /// Spoken length as measured (or estimated) when the cue was planned, seconds.
    public var durationSeconds: Double

    public init(atSeconds: Double, text: String, kind: CueKind, anchorSeconds: Double? = nil, durationSeconds: Double = 0) {
        self.atSeconds = atSeconds
        self.text = text
        self.kind = kind
        self.anchorSeconds = anchorSeconds ?? atSeconds
        self.durationSeconds = durationSeconds
    }

    /// When the utterance ends.
    public var endSeconds: Double { atSeconds + durationSeconds }
}
