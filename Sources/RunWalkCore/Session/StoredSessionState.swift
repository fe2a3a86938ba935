/// Where a session in the store stands: still being recorded (or left open by a crash until it
/// is recovered), or closed with its outcome. Kept as text in the store (`sessions.state`):
/// `recording`, or the outcome's raw value.
public enum StoredSessionState: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// Being recorded now, or left open by a crash.
    case recording
    /// Closed: how the session ended.
    case closed(SessionOutcome)
    /// A word this build does not know (a newer RunWalk's, a benchmark's rows), kept as read.
    case unknown(String)

    /// The state stored as `rawValue`; never fails (an unknown word is `.unknown`).
    public init(rawValue: String) {
        if rawValue == "recording" {
            self = .recording
        } else if let outcome = SessionOutcome(rawValue: rawValue) {
            self = .closed(outcome)
        } else {
            self = .unknown(rawValue)
        }
    }

    /// The text stored in the database and printed by `runwalk history`.
    public var rawValue: String {
        switch self {
        case .recording: return "recording"
        case .closed(let outcome): return outcome.rawValue
        case .unknown(let word): return word
        }
    }

    public var description: String { rawValue }

    /// How the session ended; nil while it records (or for a word this build does not know).
    public var outcome: SessionOutcome? {
        if case .closed(let outcome) = self { return outcome }
        return nil
    }

    /// Whether the session is still open (recording, or left open by a crash).
    public var isRecording: Bool { self == .recording }
}
