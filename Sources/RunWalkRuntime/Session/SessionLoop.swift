import RunWalkCore
import Synchronization

/// The one session loop, for replay and live alike: a location source and a clock drive a
/// `SessionDriver`; commands come from a `SessionControl`; every session event goes to the
/// hooks (voice, recorder) and the status to the control (every front end) on every change
/// and at least once a second.
///
/// Live, the clock is the continuous clock (scaled for simulators); in replay the session
/// runs on the fixes' own times (`ClockMode.track`) and no timer wakes it; tests pass a
/// `ManualClock`. Inputs (source events, commands, timer ticks) are merged into one ordered
/// stream, so the driver is only ever touched from here.
public struct SessionLoop: Sendable {
    public var workout: Workout
    public var options: SessionOptions
    public var settings: SessionDriver.Settings
    /// The source is a finite track: after the workout ends it is still read to its end for its
    /// warnings (a reader names what it skipped only once it has seen it). Never for live sources.
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

    private enum Input: Sendable {
        case location(LocationEvent)
        case sourceFinished
        case command(SessionCommand)
        case tick(Int)
    }

    /// Runs until the workout is complete or stopped, or the source has ended.
    public func run<C: Clock>(source: any LocationSource, clock: C, control: SessionControl = SessionControl(),
                              hooks: Hooks = Hooks()) async -> Result where C.Duration == Duration {
        let (inputs, feed) = AsyncStream<Input>.makeStream(bufferingPolicy: .unbounded)
        // A source that can feed the merged stream itself (a live receiver: it cannot run ahead)
        // saves a hop (a wake-up) per fix; others are read through a bounded window, so a track
        // file is not queued whole ahead of the session.
        let stopSource = source.start { event in feed.yield(event.map(Input.location) ?? .sourceFinished) }
        let window: InputWindow? = stopSource != nil ? nil : InputWindow(size: Self.readAhead)
        let reader: Task<Void, Never>? = stopSource != nil ? nil : Task {
            for await event in source.events() {
                await window?.acquire()
                feed.yield(.location(event))
            }
            feed.yield(.sourceFinished)
        }
        let commands = control.commands
        let commander = Task {
            for await command in commands { feed.yield(.command(command)) }
        }
        let start = clock.now
        let scale: Double = { if case .session(let s) = settings.clock { return s } else { return 1 } }()
        func now() -> Duration {
            let elapsed = start.duration(to: clock.now)
            return scale == 1 ? elapsed : elapsed * scale
        }
        let timer = TickTimer(clock: clock, start: start, scale: scale, feed: { feed.yield(.tick($0)) })
        defer {
            window?.close()
            reader?.cancel()
            stopSource?()
            commander.cancel()
            timer.cancel()
            control.finish()
        }

        var driver = SessionDriver(workout: workout, options: options, settings: settings)
        var lastPublished: (second: Int, stage: SessionStatus.Stage, phase: Int?, paused: Bool, gps: SessionStatus.GPS.State)?
        func deliver(_ output: SessionDriver.Output, at time: Duration) {
            output.messages.forEach(hooks.onMessage)
            if let batch = hooks.onEvents {
                if !output.events.isEmpty { batch(output.events) }
            } else {
                output.events.forEach(hooks.onEvent)
            }
            let status = driver.status(at: time)
            let key = (Int(driver.loopNow.seconds.rounded(.down)), status.stage, status.phase?.index, status.paused, status.gps.state)
            // Every change of stage, phase, pause or GPS, and every second of the session.
            let changed = output.events.contains { if case .telemetry = $0 { return false } else { return true } }
            if changed || lastPublished.map({ $0 != key }) ?? true || !output.messages.isEmpty {
                lastPublished = key
                control.publish(status)
            }
        }
        let began = now()
        deliver(driver.begin(now: began, utc: wallClock()), at: began)
        if case .session = settings.clock { timer.schedule(driver.nextDeadline(now: began) ?? began + .seconds(1)) }
        for await input in inputs {
            let at = now()
            switch input {
            case .location(let event):
                window?.release()
                deliver(driver.handle(event, now: at), at: at)
            case .sourceFinished: deliver(driver.handle(.ended, now: at), at: at)
            case .command(let command): deliver(driver.command(command, now: at), at: at)
            case .tick(let generation):
                guard timer.isCurrent(generation) else { continue }
                deliver(driver.tick(now: at), at: at)
            }
            if driver.isFinished { break }
            if case .session = settings.clock {
                timer.schedule(driver.nextDeadline(now: at) ?? at + .seconds(1))
            }
        }
        if readsSourceToEnd, !driver.sourceEnded, !driver.stopRequested {
            // The workout ended before the track did: the rest of the file is still read for
            // what it has to say (a reader names what it skipped only once it has seen it).
            for await input in inputs {
                if case .location = input { window?.release() }
                if case .location(.warning(let text)) = input { hooks.onMessage(text) }
                if case .sourceFinished = input { break }
            }
        }
        return Result(summary: driver.summary(), driver: driver)
    }
}

/// Wakes the loop at the next deadline it asked for, on the injected clock: one sleeping task
/// at a time, replaced only when the deadline changes (no periodic polling).
private final class TickTimer<C: Clock>: @unchecked Sendable where C.Duration == Duration {
    private let clock: C
    private let start: C.Instant
    private let scale: Double
    private let feed: @Sendable (Int) -> Void
    private let state = Mutex<(generation: Int, target: Duration?, task: Task<Void, Never>?)>((0, nil, nil))

    init(clock: C, start: C.Instant, scale: Double, feed: @escaping @Sendable (Int) -> Void) {
        self.clock = clock
        self.start = start
        self.scale = scale
        self.feed = feed
    }

    /// Sleeps until loop time `target` (scaled loop time), then feeds a tick.
    func schedule(_ target: Duration) {
        state.withLock { state in
            // The same deadline computed again from another `now` differs in its last bits; a
            // new sleeping task for each input (ten fixes a second) would cost wake-ups for nothing.
            if let current = state.target, current >= target - Self.early, current <= target + Self.late { return }
            state.task?.cancel()
            state.generation += 1
            state.target = target
            let generation = state.generation
            let deadline = start.advanced(by: scale == 1 ? target : target / scale)
            let clock = self.clock
            let feed = self.feed
            state.task = Task {
                do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
                feed(generation)
            }
        }
    }

    /// How much earlier or later than asked a running timer may fire and still be kept.
    static var early: Duration { .microseconds(1) }
    static var late: Duration { .milliseconds(2) }

    /// Whether a tick is from the timer's latest schedule (an older one was replaced).
    func isCurrent(_ generation: Int) -> Bool {
        state.withLock { state in
            guard state.generation == generation else { return false }
            state.target = nil
            return true
        }
    }

    func cancel() {
        state.withLock { $0.task?.cancel() }
    }
}
