/// The post-run summary; its JSON form is a contract (see DESIGN.md): snake_case keys,
/// times in seconds from the workout's start, distances in metres, paces in s/km.
public struct Summary: Sendable, Equatable, Codable {
    public struct Planned: Sendable, Equatable, Codable {
        public var durationSeconds: Double?
        public var distanceMetres: Double?
        /// The heart-rate condition that ends the phase (`until hr 150 max 5m`); its duration is the `max`.
        public var until: String?
        /// A planned target: a duration or a distance.
        public init(durationSeconds: Double?, distanceMetres: Double?) {
            self.durationSeconds = durationSeconds
            self.distanceMetres = distanceMetres
        }

        enum CodingKeys: String, CodingKey {
            case durationSeconds = "duration_s", distanceMetres = "distance_m", until
        }
    }

    public struct Phase: Sendable, Equatable, Codable {
        public var index: Int
        public var kind: PhaseKind
        public var startSeconds: Double
        public var durationSeconds: Double
        public var planned: Planned
        public var distanceMetres: Double
        public var averagePaceSecondsPerKm: Double?
        public var endReason: PhaseEndReason
        /// The band the phase had, and the time in, below and above it (adding up to `durationSeconds`).
        public var target: PhaseTargetBand?
        public var timeInTargetSeconds: Double?
        public var timeBelowSeconds: Double?
        public var timeAboveSeconds: Double?
        /// Heart rate in the phase (when there was any): time-weighted average, maximum, and
        /// seconds in each of the five zones.
        public var heartRateAverage: Double?
        public var heartRateMax: Int?
        public var heartRateZoneSeconds: [Double]?
        /// One phase as run.
        public init(index: Int, kind: PhaseKind, startSeconds: Double, durationSeconds: Double, planned: Summary.Planned,
                    distanceMetres: Double, averagePaceSecondsPerKm: Double?, endReason: PhaseEndReason) {
            self.index = index
            self.kind = kind
            self.startSeconds = startSeconds
            self.durationSeconds = durationSeconds
            self.planned = planned
            self.distanceMetres = distanceMetres
            self.averagePaceSecondsPerKm = averagePaceSecondsPerKm
            self.endReason = endReason
        }

        enum CodingKeys: String, CodingKey {
            case index, kind, planned
            case startSeconds = "start_s", durationSeconds = "duration_s", distanceMetres = "distance_m"
            case averagePaceSecondsPerKm = "avg_pace_s_per_km", endReason = "end_reason"
            case target, timeInTargetSeconds = "time_in_target_s", timeBelowSeconds = "time_below_s"
            case timeAboveSeconds = "time_above_s"
            case heartRateAverage = "hr_avg", heartRateMax = "hr_max", heartRateZoneSeconds = "hr_zones_s"
        }
    }

    public struct SplitEntry: Sendable, Equatable, Codable {
        public var index: Int
        public var distanceMetres: Double
        public var elapsedSeconds: Double
        public var splitSeconds: Double
        public var paceSecondsPerKm: Double
        /// One split.
        public init(index: Int, distanceMetres: Double, elapsedSeconds: Double, splitSeconds: Double, paceSecondsPerKm: Double) {
            self.index = index
            self.distanceMetres = distanceMetres
            self.elapsedSeconds = elapsedSeconds
            self.splitSeconds = splitSeconds
            self.paceSecondsPerKm = paceSecondsPerKm
        }

        enum CodingKeys: String, CodingKey {
            case index
            case distanceMetres = "distance_m", elapsedSeconds = "elapsed_s", splitSeconds = "split_s"
            case paceSecondsPerKm = "pace_s_per_km"
        }
    }

    public struct CueEntry: Sendable, Equatable, Codable {
        public var atSeconds: Double
        public var text: String
        public var kind: CueKind
        /// One cue as spoken.
        public init(atSeconds: Double, text: String, kind: CueKind) {
            self.atSeconds = atSeconds
            self.text = text
            self.kind = kind
        }

        enum CodingKeys: String, CodingKey { case atSeconds = "at_s", text, kind }
    }

    public struct FixCounts: Sendable, Equatable, Codable {
        public var epochs: Int
        public var used: Int
        public var rejected: Int
        public var linesBad: Int
        /// Epoch and line counts.
        public init(epochs: Int, used: Int, rejected: Int, linesBad: Int) {
            self.epochs = epochs
            self.used = used
            self.rejected = rejected
            self.linesBad = linesBad
        }

        enum CodingKeys: String, CodingKey { case epochs, used, rejected, linesBad = "lines_bad" }
    }

    public var workout: String
    public var startUTC: String?
    /// The workout clock: time in phases, pauses excluded.
    public var durationSeconds: Double
    public var movingTimeSeconds: Double
    /// Start to end, pauses included (`duration_s` + `paused_s`).
    public var elapsedSeconds: Double
    /// Time spent paused (by the runner or auto-pause).
    public var pausedSeconds: Double
    public var distanceMetres: Double
    /// The distance after an offline (Rauch–Tung–Striebel) smoothing pass, metres; the live
    /// `distance_m` is what the runner heard and what phases and splits used.
    public var smoothedDistanceMetres: Double?
    public var averagePaceSecondsPerKm: Double?
    /// How the session ended.
    public var state: SessionOutcome
    public var units: Units
    public var phases: [Phase]
    public var splits: [SplitEntry]
    /// Splits from the offline smoother's distance (`smoothed_splits`); `splits` are the live
    /// ones the runner heard. Nil without smoother history.
    public var smoothedSplits: [SplitEntry]?
    public var cues: [CueEntry]
    public var fixes: FixCounts
    /// Stretches without GPS fixes (live runs), seconds from the workout's start; nil when there were none.
    public var gpsGaps: [GPSGap]?
    /// What happened (start, pauses, skips, restarts, GPS lost and back, the end), seconds from
    /// the workout's start; nil in summaries from before it was recorded.
    public var events: [SessionEventRecord]?
    /// Heart rate over the workout (when there was any): time-weighted average, maximum, and
    /// seconds in each of the five zones (`hr_avg`, `hr_max`, `hr_zones_s`).
    public var heartRateAverage: Double?
    public var heartRateMax: Int?
    public var heartRateZoneSeconds: [Double]?

    /// A summary from its parts; `elapsedSeconds` defaults to the duration (no pauses).
    public init(workout: String, startUTC: String?, durationSeconds: Double, movingTimeSeconds: Double,
                elapsedSeconds: Double? = nil, distanceMetres: Double, averagePaceSecondsPerKm: Double?, state: SessionOutcome,
                units: Units, phases: [Phase], splits: [SplitEntry], cues: [CueEntry], fixes: FixCounts) {
        self.workout = workout
        self.startUTC = startUTC
        self.durationSeconds = durationSeconds
        self.movingTimeSeconds = movingTimeSeconds
        self.elapsedSeconds = elapsedSeconds ?? durationSeconds
        pausedSeconds = Self.round(max(0, self.elapsedSeconds - durationSeconds), 3)
        self.distanceMetres = distanceMetres
        self.averagePaceSecondsPerKm = averagePaceSecondsPerKm
        self.state = state
        self.units = units
        self.phases = phases
        self.splits = splits
        self.cues = cues
        self.fixes = fixes
    }

    /// Rounds `value` to `digits` decimals, as every number in the summary is rounded.
    public static func rounded(_ value: Double, digits: Int) -> Double { round(value, digits) }

    /// Seconds per kilometre for `seconds` over `metres`, rounded as the summary rounds it; nil under a metre.
    public static func averagePace(seconds: Double, metres: Double) -> Double? { pace(seconds: seconds, metres: metres) }

    enum CodingKeys: String, CodingKey {
        case workout, state, units, phases, splits, cues, fixes, events, gpsGaps = "gps_gaps"
        case startUTC = "start_utc", durationSeconds = "duration_s", movingTimeSeconds = "moving_time_s"
        case elapsedSeconds = "elapsed_s", pausedSeconds = "paused_s"
        case distanceMetres = "distance_m", averagePaceSecondsPerKm = "avg_pace_s_per_km"
        case smoothedDistanceMetres = "smoothed_distance_m", smoothedSplits = "smoothed_splits"
        case heartRateAverage = "hr_avg", heartRateMax = "hr_max", heartRateZoneSeconds = "hr_zones_s"
    }
}

extension Summary {
    static func pace(seconds: Double, metres: Double) -> Double? {
        metres >= 1 ? round(seconds / metres * 1000, 1) : nil
    }

    static func round(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}

extension Summary {
    /// Decodes a summary, also one stored before `elapsed_s`, `paused_s` and `events` existed
    /// (then the elapsed time is the duration: no pauses were possible).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        workout = try c.decode(String.self, forKey: .workout)
        startUTC = try c.decodeIfPresent(String.self, forKey: .startUTC)
        durationSeconds = try c.decode(Double.self, forKey: .durationSeconds)
        movingTimeSeconds = try c.decode(Double.self, forKey: .movingTimeSeconds)
        elapsedSeconds = try c.decodeIfPresent(Double.self, forKey: .elapsedSeconds) ?? durationSeconds
        pausedSeconds = try c.decodeIfPresent(Double.self, forKey: .pausedSeconds) ?? 0
        distanceMetres = try c.decode(Double.self, forKey: .distanceMetres)
        smoothedDistanceMetres = try c.decodeIfPresent(Double.self, forKey: .smoothedDistanceMetres)
        averagePaceSecondsPerKm = try c.decodeIfPresent(Double.self, forKey: .averagePaceSecondsPerKm)
        state = try c.decode(SessionOutcome.self, forKey: .state)
        units = try c.decode(Units.self, forKey: .units)
        phases = try c.decode([Phase].self, forKey: .phases)
        splits = try c.decode([SplitEntry].self, forKey: .splits)
        smoothedSplits = try c.decodeIfPresent([SplitEntry].self, forKey: .smoothedSplits)
        cues = try c.decode([CueEntry].self, forKey: .cues)
        fixes = try c.decode(FixCounts.self, forKey: .fixes)
        gpsGaps = try c.decodeIfPresent([GPSGap].self, forKey: .gpsGaps)
        events = try c.decodeIfPresent([SessionEventRecord].self, forKey: .events)
        heartRateAverage = try c.decodeIfPresent(Double.self, forKey: .heartRateAverage)
        heartRateMax = try c.decodeIfPresent(Int.self, forKey: .heartRateMax)
        heartRateZoneSeconds = try c.decodeIfPresent([Double].self, forKey: .heartRateZoneSeconds)
    }
}
