/// Everything a session produces, in time order, for the recorder, the voice and the display.
public enum SessionEvent: Sendable, Equatable {
    case engine(EngineEvent)
    case telemetry(TelemetryUpdate, clockSeconds: Double)
    /// A point for the recorded track (accepted fixes while the workout runs).
    case trackPoint(TrackPoint)
    case split(Split)
    case cue(Cue)
}

/// How a session is run.
public struct SessionOptions: Sendable, Equatable {
    public var units: Units = .metric
    public var telemetry = TelemetrySettings()
    /// Get-ready countdown before the first phase (zero in replay).
    public var getReady: Duration = .zero
    public var enabledCues: Set<CueKind> = Set(CueKind.allCases)
    /// Below this speed a fix does not count as moving time, metres per second.
    public var movingSpeedThreshold = 0.5
    /// A gap between accepted fixes longer than this starts a new track segment, seconds.
    public var gapSeconds = 5.0

    public init() {}
}
