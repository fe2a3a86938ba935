import FoundationEssentials
import RunWalkCore
import RunWalkDesktop
import RunWalkRuntime

/// What a front end asks the session service for: the workout (or the plan's next day), where
/// positions come from, the merged settings, the clock, and what the front end itself shows.
/// `runwalk run`, `runwalk replay` and the app only translate their arguments or widgets into one.
public struct SessionRequest: Sendable {
    /// The workout to run.
    public enum WorkoutChoice: Sendable, Equatable {
        /// A workout (a spec or a saved one, already parsed).
        case workout(Workout)
        /// A plan day resolved by the front end (it announced it).
        case planDay(PlanDay)
        /// The active plan's next day, resolved by the service.
        case planNext
    }

    /// Where positions come from.
    public enum Source: Sendable {
        /// A live source as `--gps` spells it: `gpsd[://HOST:PORT]`, `serial:DEVICE[@BAUD]`, `file:TRACK`.
        case live(gps: String)
        /// A recorded track replayed (`runwalk replay`): the workout starts at its first epoch.
        case track(path: String, index: Int?, script: [ScriptedCommand])
        /// A source the front end made (tests, benchmarks), run live like `live`.
        case custom(any LocationSource)
    }

    /// How the session's clock runs.
    public enum ClockMode: Sendable, Equatable {
        /// The wall clock, `speed` times real time when given (simulators, tests); a `file:`
        /// track is paced to it (nil: the source's own pace).
        case wallClock(speed: Double?)
        /// The fixes' own times drive the session; the track is read at `speed` times real
        /// time, or as fast as the machine can (nil).
        case trackTime(speed: Double?)

        /// Live, in real time.
        public static let realTime = ClockMode.wallClock(speed: nil)
        /// Paced at `speed` times real time.
        public static func paced(_ speed: Double) -> ClockMode { .wallClock(speed: speed) }
        /// As fast as possible, on the track's own times.
        public static let asFastAsPossible = ClockMode.trackTime(speed: nil)

        /// The speed-up the source and the voice are given.
        public var speed: Double? {
            switch self {
            case .wallClock(let speed), .trackTime(let speed): speed
            }
        }
    }

    /// How the process's signals reach the session.
    public enum Signals: Sendable {
        /// The front end maps them itself (or none).
        case none
        /// SIGUSR1 toggles pause, SIGUSR2 skips (the app: GLib owns SIGINT and SIGTERM).
        case pauseAndSkip
        /// Those, and SIGINT, SIGTERM and SIGQUIT stop; a second stop signal, or the session not
        /// ending within 1.5 s of the first, ends the process (`run`, `replay`: they own it).
        case all
    }

    public var workout: WorkoutChoice
    public var source: Source
    /// The settings file with the front end's options over it.
    public var settings: UserSettings
    public var clock: ClockMode
    /// Voice when the settings name none: `speaker` live, `off` in replay.
    public var defaultVoice: String
    /// The program the messages name (`runwalk`, `runwalk-app`).
    public var program: String
    /// How the store names this front end's sessions (`live:`, `app:`, `replay:` and the source).
    public var recordedSource: String
    /// Recorded in the store (`--no-record`: not).
    public var record = true
    /// When the workout starts: at the first fix (after a countdown), or at once.
    public var start: SessionDriver.StartPolicy = .fix
    /// Seconds counted down before the first phase when it starts from a fix: settings.conf's
    /// `countdown`, else 3; a front end's own option (`--countdown`) replaces it.
    public var countdownSeconds: Int
    /// Hands-free around the session (MPRIS, notifications, haptics, inhibitor, music); nil: none.
    public var handsFree: HandsFree.Options?
    /// Whether the session serves `runwalk control` on the user's socket; one session at a
    /// time answers there, so a second start is refused naming the one that runs.
    public var controlSocket = true
    public var signals: Signals = .none
    /// The environment (store and config folders, `RUNWALK_TODAY`, the control socket's path).
    public var environment: [String: String]

    public init(workout: WorkoutChoice, source: Source, settings: UserSettings, clock: ClockMode,
                defaultVoice: String, program: String, recordedSource: String,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.workout = workout
        self.source = source
        self.settings = settings
        self.clock = clock
        self.defaultVoice = defaultVoice
        self.program = program
        self.recordedSource = recordedSource
        self.environment = environment
        countdownSeconds = settings.countdownSeconds ?? 3
    }
}
