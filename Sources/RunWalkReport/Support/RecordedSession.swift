import RunWalkCore

/// What every renderer takes: a session's contract summary and its recorded track.
public struct RecordedSession: Sendable, Equatable {
    /// The contract summary.
    public var summary: Summary
    /// The recorded track, in time order.
    public var track: [TrackPoint]
    /// The heart-rate samples as recorded (elapsed seconds, bpm, and the strap's or file's RR
    /// intervals), in time order; empty when the session had no heart rate or it was not loaded.
    /// The track's points carry the bpm already; exports take the RR intervals from here.
    public var heartRate: [HeartRateSample]

    /// A session from its summary, track and heart-rate samples.
    public init(summary: Summary, track: [TrackPoint], heartRate: [HeartRateSample] = []) {
        self.summary = summary
        self.track = track
        self.heartRate = heartRate
    }

    /// The UTC instant of the workout's start (elapsed 0): from the track when it has
    /// points (exact to the millisecond), else from the summary's `start_utc`.
    public var startTime: UTCTime? {
        if let first = track.first {
            return UTCTime(milliseconds: first.time.milliseconds - Int64((first.elapsedSeconds * 1000).rounded()))
        }
        return summary.startUTC.flatMap(ISO8601Time.parseZoned)
    }

    /// The UTC instant `seconds` after the start (the epoch when the start is unknown).
    public func time(atElapsed seconds: Double) -> UTCTime {
        let base = startTime ?? UTCTime(milliseconds: 0)
        return UTCTime(milliseconds: base.milliseconds + Int64((seconds * 1000).rounded()))
    }

    /// Wall time from the start to the end of the last phase, seconds (pauses between phases included).
    public var elapsedSeconds: Double {
        let phaseEnd = summary.phases.map { $0.startSeconds + $0.durationSeconds }.max() ?? 0
        return max(summary.durationSeconds, phaseEnd)
    }

    /// Track points of phase `index`, in order.
    public func points(inPhase index: Int) -> ArraySlice<TrackPoint> {
        guard let first = track.firstIndex(where: { $0.phaseIndex == index }) else { return [] }
        let end = track[first...].firstIndex(where: { $0.phaseIndex != index }) ?? track.endIndex
        return track[first..<end]
    }

    /// The laps to export: one per phase, or one for the whole session when it has no
    /// phases (TCX and FIT need at least one).
    public var laps: [Lap] {
        if summary.phases.isEmpty {
            return [Lap(index: 0, kind: .run, startSeconds: 0, durationSeconds: summary.durationSeconds,
                        distanceMetres: summary.distanceMetres, endedByPlan: false, byDistance: false, points: track[...])]
        }
        return summary.phases.map { phase in
            Lap(index: phase.index, kind: phase.kind, startSeconds: phase.startSeconds, durationSeconds: phase.durationSeconds,
                distanceMetres: phase.distanceMetres, endedByPlan: phase.endReason == .completed,
                byDistance: phase.planned.distanceMetres != nil, points: points(inPhase: phase.index))
        }
    }

    /// Whether any track point carries an altitude.
    public var hasAltitude: Bool { track.contains { $0.altitudeMSL != nil } }

    /// Whether any track point carries a heart rate.
    public var hasHeartRate: Bool { track.contains { $0.heartRateBPM != nil } }
}

/// A run/walk phase as the exports see it: running phases are active, walking is recovery.
extension PhaseKind {
    /// Whether the phase counts as effort (warm-up, run, cool-down) rather than recovery (walk).
    public var isActive: Bool { self != .walk }

    /// A capitalised label: `Warm-up`, `Run`, `Walk`, `Cool-down`.
    public var label: String {
        switch self {
        case .warmup: return "Warm-up"
        case .run: return "Run"
        case .walk: return "Walk"
        case .cooldown: return "Cool-down"
        }
    }
}

/// A lap of an export: a phase as run, with its track points.
public struct Lap: Sendable, Equatable {
    /// The phase's index.
    public var index: Int
    /// Warm-up, run, walk or cool-down.
    public var kind: PhaseKind
    /// Start, seconds from the workout's start.
    public var startSeconds: Double
    /// Active time, seconds.
    public var durationSeconds: Double
    /// Distance, metres.
    public var distanceMetres: Double
    /// The phase ended at its planned time or distance (not skipped or stopped).
    public var endedByPlan: Bool
    /// The phase was planned as a distance.
    public var byDistance: Bool
    /// The lap's track points.
    public var points: ArraySlice<TrackPoint>

    /// The fastest smoothed speed in the lap, metres per second.
    public var maximumSpeedMetresPerSecond: Double? { points.compactMap(\.speedMetresPerSecond).max() }
}
