import RunWalkCore

/// Everything a front end shows about a running session, published on every change and at
/// least once a second. Front ends (terminal, app, MPRIS, `runwalk control status`) read only this.
///
/// Times are seconds; distances metres; paces seconds per kilometre. Its JSON form (snake_case
/// keys) is what `runwalk control status --json` prints.
public struct SessionStatus: Sendable, Equatable, Codable {
    /// Where the session is.
    public enum Stage: String, Sendable, Equatable, Codable {
        /// The workout waits for the first GPS fix before it starts.
        case waitingForFix = "waiting_for_fix"
        /// "3, 2, 1" before the first phase.
        case startCountdown = "start_countdown"
        /// A phase runs.
        case running
        /// The runner (or auto-pause) paused the workout.
        case paused
        case completed
        case stopped
    }

    /// One phase as planned.
    public struct Phase: Sendable, Equatable, Codable {
        public var index: Int
        public var kind: PhaseKind
        /// The planned length of a time phase, seconds.
        public var plannedSeconds: Double?
        /// The planned distance of a distance phase, metres.
        public var plannedMetres: Double?

        public init(index: Int, kind: PhaseKind, plannedSeconds: Double?, plannedMetres: Double?) {
            self.index = index
            self.kind = kind
            self.plannedSeconds = plannedSeconds
            self.plannedMetres = plannedMetres
        }

        enum CodingKeys: String, CodingKey {
            case index, kind, plannedSeconds = "planned_s", plannedMetres = "planned_m"
        }
    }

    /// The GPS as the runner should see it.
    public struct GPS: Sendable, Equatable, Codable {
        public enum State: String, Sendable, Equatable, Codable {
            /// No position yet since the session began.
            case noFix = "no_fix"
            /// Positions arrive.
            case fix
            /// Positions stopped arriving (signal or source lost).
            case lost
        }
        public var state: State
        /// Estimated horizontal accuracy of the last fix, metres (from GST, else HDOP).
        public var accuracyMetres: Double?
        /// Satellites used in the last fix.
        public var satellites: Int?
        /// How long the GPS has been lost (or without a fix), seconds.
        public var lostForSeconds: Double?
        /// Why the source gives no positions when it knows, in a few words ("gpsd has no
        /// receiver"); nil when it does not say (JSON `problem`, absent then).
        public var problem: String?

        public init(state: State, accuracyMetres: Double? = nil, satellites: Int? = nil, lostForSeconds: Double? = nil,
                    problem: String? = nil) {
            self.state = state
            self.accuracyMetres = accuracyMetres
            self.satellites = satellites
            self.lostForSeconds = lostForSeconds
            self.problem = problem
        }

        enum CodingKeys: String, CodingKey {
            case state, accuracyMetres = "accuracy_m", satellites, lostForSeconds = "lost_for_s", problem
        }
    }

    /// The workout as the user gave it (spec or saved name).
    public var workout: String
    public var stage: Stage
    /// Paused, by the runner or by auto-pause.
    public var paused: Bool
    /// Paused by auto-pause (standing still), not by a command.
    public var autoPaused: Bool
    /// The phase running (or paused) now; nil before the start and after the end.
    public var phase: Phase?
    /// Phases in the workout.
    public var phaseCount: Int
    /// The phase after this one; nil in the last phase.
    public var next: Phase?
    /// Active time in the phase (pauses excluded), seconds.
    public var phaseElapsedSeconds: Double
    /// Time left in a time phase, seconds.
    public var phaseRemainingSeconds: Double?
    /// Distance left in a distance phase, metres.
    public var phaseRemainingMetres: Double?
    /// How much of the phase is done, 0…1.
    public var phaseProgress: Double
    /// The workout clock: active time since the first phase began (pauses excluded), seconds.
    public var workoutElapsedSeconds: Double
    /// Time left in the workout when every phase left is a time phase (else an estimate from
    /// the current pace, or nil when there is none), seconds.
    public var workoutRemainingSeconds: Double?
    /// How much of the workout is done, 0…1 (by planned time; distance phases by their share of distance).
    public var workoutProgress: Double
    /// Start to now, pauses included, seconds.
    public var elapsedSeconds: Double
    /// Distance counted in the workout (pauses excluded), metres.
    public var distanceMetres: Double
    /// Current pace; nil while standing, before the first fix and while the GPS is lost.
    public var currentPaceSecondsPerKm: Double?
    /// Average pace over the workout so far.
    public var averagePaceSecondsPerKm: Double?
    public var gps: GPS
    /// Seconds left of the start countdown ("3, 2, 1") while `stage` is `startCountdown`.
    public var startCountdownSeconds: Int?
    /// The runner's units, for front ends that format distances and paces.
    public var units: Units
    /// The current phase's band (pace or heart rate), and whether the runner is below, in or
    /// above it (nil without a band, or without a pace or heart rate to tell).
    public var target: PhaseTargetBand?
    public var targetState: TargetState?
    /// The heart rate from a live strap (at most a few seconds old), beats per minute, and its
    /// zone (1 to 5); nil without a strap or while it is lost.
    public var heartRateBPM: Int?
    public var heartRateZone: Int?

    public init(workout: String, stage: Stage, paused: Bool = false, autoPaused: Bool = false, phase: Phase? = nil,
                phaseCount: Int, next: Phase? = nil, phaseElapsedSeconds: Double = 0, phaseRemainingSeconds: Double? = nil,
                phaseRemainingMetres: Double? = nil, phaseProgress: Double = 0, workoutElapsedSeconds: Double = 0,
                workoutRemainingSeconds: Double? = nil, workoutProgress: Double = 0, elapsedSeconds: Double = 0,
                distanceMetres: Double = 0, currentPaceSecondsPerKm: Double? = nil, averagePaceSecondsPerKm: Double? = nil,
                gps: GPS = GPS(state: .noFix), startCountdownSeconds: Int? = nil, units: Units = .metric) {
        self.workout = workout
        self.stage = stage
        self.paused = paused
        self.autoPaused = autoPaused
        self.phase = phase
        self.phaseCount = phaseCount
        self.next = next
        self.phaseElapsedSeconds = phaseElapsedSeconds
        self.phaseRemainingSeconds = phaseRemainingSeconds
        self.phaseRemainingMetres = phaseRemainingMetres
        self.phaseProgress = phaseProgress
        self.workoutElapsedSeconds = workoutElapsedSeconds
        self.workoutRemainingSeconds = workoutRemainingSeconds
        self.workoutProgress = workoutProgress
        self.elapsedSeconds = elapsedSeconds
        self.distanceMetres = distanceMetres
        self.currentPaceSecondsPerKm = currentPaceSecondsPerKm
        self.averagePaceSecondsPerKm = averagePaceSecondsPerKm
        self.gps = gps
        self.startCountdownSeconds = startCountdownSeconds
        self.units = units
    }

    /// The session has ended (completed or stopped).
    public var isFinished: Bool { stage == .completed || stage == .stopped }

    enum CodingKeys: String, CodingKey {
        case workout, stage, paused, phase, next, gps, units
        case autoPaused = "auto_paused", phaseCount = "phase_count"
        case phaseElapsedSeconds = "phase_elapsed_s", phaseRemainingSeconds = "phase_remaining_s"
        case phaseRemainingMetres = "phase_remaining_m", phaseProgress = "phase_progress"
        case workoutElapsedSeconds = "workout_elapsed_s", workoutRemainingSeconds = "workout_remaining_s"
        case workoutProgress = "workout_progress", elapsedSeconds = "elapsed_s", distanceMetres = "distance_m"
        case currentPaceSecondsPerKm = "current_pace_s_per_km", averagePaceSecondsPerKm = "avg_pace_s_per_km"
        case startCountdownSeconds = "start_countdown_s"
        case target, targetState = "target_state"
        case heartRateBPM = "hr", heartRateZone = "hr_zone"
    }
}
