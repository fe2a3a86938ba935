import RunWalkCore

/// The one session loop, for replay and live alike: a location source and a clock drive a
/// `SessionDriver`; commands come from a `SessionControl`; every session event goes to the
/// hooks (voice, recorder) and the status to the control (every front end) on every change
/// and at least once a second.
///
/// Live, the clock is the continuous clock (scaled for simulators) and one timer thread wakes
/// the loop; in replay the session runs on the fixes' own times (`ClockMode.track`) and no
/// timer wakes it; tests pass a `ManualClock`, which drives the same timer thread. Inputs (source events, commands, timer ticks)
/// are handled one at a time (`LoopSteps`), so the driver is only ever touched by one of them.
public struct SessionLoop: Sendable {
    public var workout: Workout
    public var options: SessionOptions
    public var settings: SessionDriver.Settings
    /// The source is a finite track: after the workout ends it is still read to its end for its
    /// warnings (a reader names what it skipped only once it has seen it), unpaced, and only when
    /// the source can hand it over (`SourceHandle.drain`); a stop ends it. Never for live sources.
    public var readsSourceToEnd = false
    /// The wall time now, for a start without a dated fix (the loop never reads the system's clock itself).
    public var wallClock: @Sendable () -> UTCTime? = { nil }

    public init(workout: Workout, options: SessionOptions = SessionOptions(), settings: SessionDriver.Settings = .init()) {
        self.workout = workout
        self.options = options
        self.settings = settings
    }

    /// What the session's adapters are told.
    public struct Hooks: Sendable {
        /// Every session event, in order (recorder, voice).
        public var onEvent: @Sendable (SessionEvent) -> Void
        /// Lines for the user (source connected or lost, warnings).
        public var onMessage: @Sendable (String) -> Void
        /// When set, the events of one input (a fix with its track point, split, cues…) come
        /// together here instead of one by one to `onEvent`: a recorder hands them to its writer
        /// thread at once, so that thread wakes once per fix, not once per event.
        public var onEvents: (@Sendable ([SessionEvent]) -> Void)?

        public init(onEvent: @escaping @Sendable (SessionEvent) -> Void = { _ in },
                    onMessage: @escaping @Sendable (String) -> Void = { _ in },
                    onEvents: (@Sendable ([SessionEvent]) -> Void)? = nil) {
            self.onEvent = onEvent
            self.onMessage = onMessage
            self.onEvents = onEvents
        }
    }

    /// How the session ended.
    public struct Result: Sendable {
        public var summary: Summary
        public var driver: SessionDriver
        /// The workout never started (no fix came, or it was stopped first).
        public var started: Bool { driver.started }
    }

    /// Runs until the workout is complete or stopped, or the source has ended.
    ///
    /// Each input is handled on the thread that brings it (the source's reading thread, the
    /// timer's thread, the task that reads commands), one at a time under the loop's lock: a
    /// fix goes from the receiver's socket or the track file into the driver, the recorder and
    /// the voice without a thread hand-off, so a live fix costs one wake-up (the reading
    /// thread's) and a replay none beyond reading the file.
    public func run<C: LoopClock>(source: any LocationSource, clock: C, control: SessionControl = SessionControl(),
                                  hooks: Hooks = Hooks()) async -> Result {
        let start = clock.now
        let scale: Double = {
            if case .session(let s) = settings.clock { return s }
            return settings.trackPace ?? 1
        }()
        let now: @Sendable () -> Duration = {
            let elapsed = start.duration(to: clock.now)
            return scale == 1 ? elapsed : elapsed * scale
        }
        let steps = LoopSteps(driver: SessionDriver(workout: workout, options: options, settings: settings),
                              hooks: hooks, control: control, readsSourceToEnd: readsSourceToEnd, now: now)
        if settings.clock != .track || settings.trackPace != nil {
            // One long-lived timer thread, on the real clock live and on the manual clock in tests
            // (a paced replay's wakes it only for a split predicted between two fixes).
            steps.timer = ThreadTimer(clock: clock, start: start, scale: scale) { steps.handle(.tick($0)) }
        }
        steps.begin(utc: wallClock())
        // A source that can feed the loop from its own thread does (every source here); others
        // are read by a task, each event handled before the next is taken (the back-pressure
        // that keeps a track file from being queued whole ahead of the session).
        let started = source.startWithHandle { event in steps.handle(event.map(LoopSteps.Input.location) ?? .sourceFinished) }
        if let started { steps.attach(started) }
        let reader: Task<Void, Never>? = started != nil ? nil : Task {
            for await event in source.events() {
                steps.handle(.location(event))
                if steps.isDone { return }
            }
            steps.handle(.sourceFinished)
        }
        let commands = control.commands
        let commander = Task {
            for await command in commands { steps.handle(.command(command)) }
        }
        let heartRates = control.heartRates
        let heartRateReader = Task {
            for await input in heartRates { steps.handle(.heartRate(input)) }
        }
        await withTaskCancellationHandler {
            await steps.waitUntilDone()
        } onCancel: {
            steps.abandon()
        }
        reader?.cancel()
        started?.stop()
        commander.cancel()
        heartRateReader.cancel()
        steps.timer?.cancel()
        control.finish()
        let driver = steps.finalDriver
        return Result(summary: driver.summary(), driver: driver)
    }
}
