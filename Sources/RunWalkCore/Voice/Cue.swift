/// What a cue is about; each kind can be switched off.
public enum CueKind: String, Sendable, Codable, CaseIterable {
    case transition, countdown, halfway, split, summary, gps, pauseResume = "pause_resume", complete
}

/// Something to say, and when (seconds from the workout's start).
public struct Cue: Sendable, Equatable {
    public var atSeconds: Double
    public var text: String
    public var kind: CueKind

    public init(atSeconds: Double, text: String, kind: CueKind) {
        self.atSeconds = atSeconds
        self.text = text
        self.kind = kind
    }
}
