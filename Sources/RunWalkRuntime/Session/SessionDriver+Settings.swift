import RunWalkCore

/// How a session is driven (when it starts, how it tells time, what it is given ahead), and
/// what each of the driver's steps gives back.
extension SessionDriver {
    /// When the workout starts.
    public enum StartPolicy: String, Sendable, Equatable, CaseIterable {
        /// At once (in replay: at the track's first epoch).
        case now
        /// At the first fix with a position, after the start countdown ("3, 2, 1").
        case fix
    }

    /// How the session tells time.
    public enum ClockMode: Sendable, Equatable {
        /// The loop's clock, `scale` times real time (1 live; more for simulators fed faster).
        case session(scale: Double)
        /// The fixes' own times (replay, or a file fed as fast as possible).
        case track
    }

    /// How a session is driven.
    public struct Settings: Sendable, Equatable {
        public var start: StartPolicy = .fix
        public var clock: ClockMode = .session(scale: 1)
        /// The countdown before the first phase when the workout starts from a fix or a start command.
        public var startCountdown: Duration = .seconds(3)
        /// Standing still pauses the workout, moving resumes it.
        public var autoPause = false
        /// Commands given ahead (`replay --control`).
        public var script: [ScriptedCommand] = []
        /// With a clock faster than real time, the GPS counts as lost only after this much real time too.
        public var signalTimeoutMinimumRealSeconds = 1.0
        /// On the track's clock, the track is fed at this many times real time (a paced replay):
        /// the loop's timer then wakes it for a split predicted between two fixes. Nil: as fast
        /// as it is read (the fix after the split's instant brings it).
        public var trackPace: Double?

        public init(start: StartPolicy = .fix, clock: ClockMode = .session(scale: 1), autoPause: Bool = false,
                    script: [ScriptedCommand] = []) {
            self.start = start
            self.clock = clock
            self.autoPause = autoPause
            self.script = script
        }
    }

    /// What one call produced: session events for the adapters, messages for the user.
    public struct Output: Sendable, Equatable {
        public var events: [SessionEvent] = []
        public var messages: [String] = []

        public init(events: [SessionEvent] = [], messages: [String] = []) {
            self.events = events
            self.messages = messages
        }

        static func += (a: inout Output, b: Output) {
            a.events += b.events
            a.messages += b.messages
        }
    }
}
