/// Everything a session produces, in time order, for the recorder, the voice and the display.
public enum SessionEvent: Sendable, Equatable {
    case engine(EngineEvent)
    case telemetry(TelemetryUpdate, clockSeconds: Double)
    /// A point for the recorded track (accepted fixes while the workout runs).
    case trackPoint(TrackPoint)
    case split(Split)
    case cue(Cue)
    /// The GPS signal went away or came back (live runs); the gap is recorded.
    case gps(GPSSignalEvent)
    /// Something the runner or the session did (start, pause, skip, GPS lost, the end), as
    /// recorded and listed in the summary; its time is on the session clock.
    case happened(SessionEventRecord)
    /// A heart-rate sample (a strap's notification, or a track file's point), its time on the
    /// session clock.
    case heartRate(HeartRateSample)
}

/// The GPS signal going away or returning, at a clock time in seconds.
public enum GPSSignalEvent: Sendable, Equatable {
    case lost(atSeconds: Double, reason: GPSGap.Reason)
    case back(atSeconds: Double)
}

/// A stretch of the session without usable fixes.
public struct GPSGap: Sendable, Equatable, Codable {
    /// Why there were no fixes: none yet since the start, or the signal (or the source) went away.
    public enum Reason: String, Sendable, Codable {
        case noFixYet = "no_fix_yet", signalLost = "signal_lost"
    }

    /// Clock seconds (the summary turns them into seconds from the workout's start).
    public var startSeconds: Double
    /// Nil while the gap lasts.
    public var endSeconds: Double?
    public var reason: Reason

    enum CodingKeys: String, CodingKey { case startSeconds = "start_s", endSeconds = "end_s", reason }

    public init(startSeconds: Double, endSeconds: Double? = nil, reason: Reason) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.reason = reason
    }
}

/// How a session is run.
public struct SessionOptions: Sendable, Equatable {
    public var units: Units = .metric
    public var telemetry = TelemetrySettings()
    /// Get-ready countdown before the first phase (zero in replay).
    public var getReady: Duration = .zero
    public var enabledCues: Set<CueKind> = CueKind.defaultEnabled
    /// The voice's language.
    public var language: Language = .en
    /// How long utterances sound (the speech adapter measures them; estimated otherwise).
    public var speechTiming: SpeechTiming = .estimated
    /// No position for this long (session seconds) counts as the GPS lost ("GPS signal lost"),
    /// live and in replay.
    public var gpsLostAfterSeconds = 3.0
    /// Below this speed a fix does not count as moving time, metres per second.
    public var movingSpeedThreshold = 0.5
    /// A gap between accepted fixes longer than this starts a new track segment, seconds.
    public var gapSeconds = 5.0
    /// A km split that the live distance reaches before the next fix is said at the predicted
    /// instant, not at that fix (`SplitForecast`); off: at the fix that completes it.
    public var predictsSplitCrossings = true
    /// The zones the summary's `hr_zones_s` count in.
    public var heartRateZones = HeartRateZones.standard
    /// The split cue adds the heart rate ("Heart rate 148.") when there is one (`voice.hr = on`).
    public var saysHeartRateAtSplits = false
    /// Said before the first cue when set, e.g. "Week 3, day 2 of couch to 5K." (plan days).
    public var introduction: String?
    /// The target coach's grace, quiet and "worse" settings (back in band follows `enabledCues`).
    public var targetCoaching = TargetCoach.Settings()

    public init() {}
}
