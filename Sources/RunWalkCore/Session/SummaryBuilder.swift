/// Turns a session's figures into its `Summary`: the one place that computes the totals, the
/// elapsed and paused time, per-phase and average paces and every rounding. The live session
/// (`SessionRunner.summary`) and the store's rebuild of a session a crash left open both build
/// with it, from the engine's records or from the stored rows.
public struct SummaryBuilder: Sendable {
    /// One phase as run. Times are on the builder's clock (`originSeconds` at the workout's start).
    public struct PhaseFigures: Sendable, Equatable {
        /// Its index in the workout.
        public var index: Int
        /// Warm-up, run, walk or cool-down.
        public var kind: PhaseKind
        /// Its planned duration or distance.
        public var planned: Summary.Planned
        /// When it started.
        public var startSeconds: Double
        /// Start to end, pauses included.
        public var endSeconds: Double
        /// Time in the phase, pauses excluded.
        public var activeSeconds: Double
        /// Distance in it, pauses excluded, metres.
        public var distanceMetres: Double
        /// Why it ended.
        public var reason: PhaseEndReason

        /// One phase's figures.
        public init(index: Int, kind: PhaseKind, planned: Summary.Planned, startSeconds: Double, endSeconds: Double,
                    activeSeconds: Double, distanceMetres: Double, reason: PhaseEndReason) {
            self.index = index
            self.kind = kind
            self.planned = planned
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
            self.activeSeconds = activeSeconds
            self.distanceMetres = distanceMetres
            self.reason = reason
        }
    }

    /// The workout as typed.
    public var workoutSpec: String
    /// The receiver's time at the start, when known.
    public var startUTC: UTCTime?
    /// The units the session was run in.
    public var units: Units
    /// How the session ended.
    public var outcome: SessionOutcome
    /// The clock time of the workout's start: phase, cue, gap and event times are given on the
    /// session clock (the get-ready countdown before zero) and reported from this origin.
    public var originSeconds = 0.0
    /// The phases as run, in order.
    public var phases: [PhaseFigures] = []
    /// Moving time (`MovingTimeCounter`), seconds; capped at the duration.
    public var movingSeconds = 0.0
    /// Timed from the workout's start already (`SplitTracker` counts from there).
    public var splits: [Split] = []
    /// The offline smoother's distance and splits, when it ran.
    public var smoothed: (distanceMetres: Double, splits: [Split])?
    /// The cues as placed.
    public var cues: [Cue] = []
    /// Stretches without fixes.
    public var gpsGaps: [GPSGap] = []
    /// Nil for a session recorded before events were.
    public var events: [SessionEventRecord]?
    /// Epoch and line counts.
    public var fixes = Summary.FixCounts(epochs: 0, used: 0, rejected: 0, linesBad: 0)
    /// Heart-rate samples on the builder's clock, in time order (none: no heart-rate keys).
    public var heartRate: [HeartRateSample] = []
    /// The zones `hr_zones_s` counts in.
    public var heartRateZones = HeartRateZones.standard

    /// A builder for a session of `workoutSpec`; fill in the figures, then `build()`.
    public init(workoutSpec: String, startUTC: UTCTime?, units: Units, outcome: SessionOutcome) {
        self.workoutSpec = workoutSpec
        self.startUTC = startUTC
        self.units = units
        self.outcome = outcome
    }

    /// The summary, every figure rounded as the contract shows it.
    public func build() -> Summary {
        let round = Summary.rounded
        let total = phases.reduce(0) { $0 + $1.distanceMetres }
        let duration = phases.reduce(0) { $0 + $1.activeSeconds }
        // Phases follow one another without a gap, pauses inside them.
        let elapsed = phases.last.map { $0.endSeconds - (phases.first?.startSeconds ?? 0) } ?? 0
        var summary = Summary(
            workout: workoutSpec, startUTC: startUTC?.iso8601(fractionDigits: 0),
            durationSeconds: round(duration, 3), movingTimeSeconds: round(min(movingSeconds, duration), 3),
            elapsedSeconds: round(max(elapsed, duration), 3), distanceMetres: round(total, 2),
            averagePaceSecondsPerKm: Summary.averagePace(seconds: duration, metres: total),
            state: outcome, units: units,
            phases: phases.map { phase in
                Summary.Phase(index: phase.index, kind: phase.kind, startSeconds: round(phase.startSeconds - originSeconds, 3),
                              durationSeconds: round(phase.activeSeconds, 3),
                              planned: phase.planned,
                              distanceMetres: round(phase.distanceMetres, 2),
                              averagePaceSecondsPerKm: Summary.averagePace(seconds: phase.activeSeconds, metres: phase.distanceMetres),
                              endReason: phase.reason)
            },
            splits: splits.map(Self.entry),
            cues: cues.map { Summary.CueEntry(atSeconds: round($0.atSeconds - originSeconds, 3), text: $0.text, kind: $0.kind) },
            fixes: fixes)
        summary.pausedSeconds = round(max(0, elapsed - duration), 3)
        summary.smoothedDistanceMetres = smoothed.map { round($0.distanceMetres, 2) }
        summary.smoothedSplits = smoothed.map { $0.splits.map(Self.entry) }
        summary.gpsGaps = gpsGaps.isEmpty ? nil : gpsGaps.map {
            GPSGap(startSeconds: round($0.startSeconds - originSeconds, 3),
                   endSeconds: $0.endSeconds.map { round($0 - originSeconds, 3) }, reason: $0.reason)
        }
        if let first = phases.first, let last = phases.last,
           let stats = HeartRateStats(samples: heartRate, from: first.startSeconds, to: last.endSeconds, zones: heartRateZones) {
            summary.heartRateAverage = stats.averageBPM
            summary.heartRateMax = stats.maxBPM
            summary.heartRateZoneSeconds = stats.zoneSeconds
            for (i, phase) in phases.enumerated() {
                guard let stats = HeartRateStats(samples: heartRate, from: phase.startSeconds, to: phase.endSeconds,
                                                 zones: heartRateZones) else { continue }
                summary.phases[i].heartRateAverage = stats.averageBPM
                summary.phases[i].heartRateMax = stats.maxBPM
                summary.phases[i].heartRateZoneSeconds = stats.zoneSeconds
            }
        }
        summary.events = events?.map {
            SessionEventRecord(kind: $0.kind, atSeconds: round($0.atSeconds - originSeconds, 3), phaseIndex: $0.phaseIndex)
        }
        return summary
    }

    static func entry(_ split: Split) -> Summary.SplitEntry {
        Summary.SplitEntry(index: split.index, distanceMetres: Summary.rounded(split.distanceMetres, digits: 3),
                           elapsedSeconds: Summary.rounded(split.elapsedSeconds, digits: 3),
                           splitSeconds: Summary.rounded(split.splitSeconds, digits: 3),
                           paceSecondsPerKm: Summary.rounded(split.paceSecondsPerKm, digits: 1))
    }
}
