import RunWalkCore

/// One session's sequencing, without I/O or clocks: the session loop feeds it location events,
/// commands and ticks with the time it read, and carries out what comes back.
///
/// It turns loop time into the session clock (the injected clock live; the fixes' own times in
/// replay), starts the workout (at once, or at the first fix after a "3, 2, 1"), ingests fixes,
/// keeps the one GPS-lost detector, applies commands (pause, resume, skip, restart, stop, start)
/// and auto-pause, and ends the session when the workout is complete, the source has ended or a
/// stop was asked for. The core's `SessionRunner` does the computing.
public struct SessionDriver: Sendable {
    public let settings: Settings
    public private(set) var runner: SessionRunner
    /// The workout has started (its countdown or first phase began).
    public private(set) var started = false
    /// The source ended (a file) before the workout did.
    public private(set) var sourceEnded = false
    /// A stop was asked for.
    public private(set) var stopRequested = false
    public private(set) var linesBad = 0
    /// Why a recorded track could not be read (track mode: said by the caller, not as a message).
    public private(set) var sourceFailure: String?
    public private(set) var gpsState: SessionStatus.GPS.State = .noFix
    /// Paused by auto-pause, not by the runner.
    public private(set) var autoPaused = false
    /// The loop time at the latest call (track mode: the fixes' time since the first epoch).
    public private(set) var loopNow: Duration = .zero
    /// The latest fix the source gave (for satellites and accuracy).
    public private(set) var lastFix: Fix?
    /// What the source says keeps it from giving positions ("gpsd has no receiver"), until it is over.
    public private(set) var sourceProblem: String?
    /// Loop time at which the session clock reads zero (the workout's start, countdown included).
    private(set) var origin: Duration?
    /// Loop time at which the GPS was last seen lost (or the loop began, before any fix).
    private(set) var gpsLostSinceLoop: Duration = .zero
    private var firstTrackTime: UTCTime?
    /// The wall time when the loop began (live), for a start without a dated fix.
    private var loopBeganUTC: UTCTime?
    private var watch: GPSWatch
    private var autoPauseDetector = AutoPause()
    private var script: [ScriptedCommand]
    private var hadPosition = false
    private var waitingAnnounced = false
    /// The session clock the runner was last moved to (it never goes back).
    private var runnerClock: Duration = .zero
    /// The latest position fix's receiver time and the session clock at which it came.
    private(set) var lastArrival: (stamp: UTCTime, clock: Duration)?
    /// The receiver's time between its last two position fixes.
    private(set) var cadence: Duration?

    public init(workout: Workout, options: SessionOptions = SessionOptions(), settings: Settings = Settings()) {
        self.settings = settings
        var options = options
        options.getReady = settings.start == .fix ? settings.startCountdown : .zero
        runner = SessionRunner(workout: workout, options: options)
        watch = GPSWatch(minimumSeconds: options.gpsLostAfterSeconds)
        if case .session(let scale) = settings.clock {
            watch.clockScale = scale
            watch.minimumRealSeconds = settings.signalTimeoutMinimumRealSeconds
        }
        script = settings.script
    }

    /// True once the workout is complete or stopped, or it can no longer start.
    public var isFinished: Bool {
        if !started { return sourceEnded || stopRequested }
        return runner.engine.state == .completed || runner.engine.state == .stopped
    }

    /// How the session ended (or `inProgress`).
    public var outcome: SessionOutcome {
        switch runner.engine.state {
        case .completed: return runner.finishedOutcome
        case .stopped: return stopRequested || !sourceEnded ? .stopped : .incomplete
        default: return sourceEnded ? .incomplete : .inProgress
        }
    }

    /// The session clock (zero at the workout's start, countdown included) at loop time `now`.
    public func sessionClock(at now: Duration) -> Duration {
        guard let origin else { return .zero }
        if case .track = settings.clock { return max(runnerClock, loopNow - origin) }
        return max(runnerClock, now - origin)
    }

    /// The summary: `incomplete` when the source ended before the workout.
    public func summary() -> Summary {
        runner.summary(linesBad: linesBad, outcome: outcome)
    }

    // MARK: Inputs

    /// The loop begins at loop time `now`: starts at once when the policy says so.
    public mutating func begin(now: Duration, utc: UTCTime?) -> Output {
        loopBeganUTC = utc
        // On the track's clock, time starts with the first epoch.
        guard settings.clock != .track else { return Output() }
        loopNow = now
        gpsLostSinceLoop = now
        if settings.start == .now { return startWorkout(utc: utc) }
        return Output(messages: [Self.waitingMessage])
    }

    /// One event from the location source, received at loop time `now` (ignored in track mode).
    public mutating func handle(_ event: LocationEvent, now: Duration) -> Output {
        guard !isFinished else { return Output() }
        switch event {
        case .fix(let fix):
            // Positions arriving end whatever the source said was in their way.
            if fix.latitude != nil { sourceProblem = nil }
            return ingest(fix, now: now)
        case .problem(let text):
            sourceProblem = text
            return Output()
        case .connected(let text):
            // A track file "connects" by opening: nothing to tell in replay.
            return settings.clock == .track ? Output() : Output(messages: [text])
        case .warning(let text):
            return Output(messages: [text])
        case .unavailable(let text) where settings.clock == .track:
            sourceFailure = sourceFailure ?? text
            return Output()
        case .unavailable(let text):
            moveTo(now)
            var output = Output(messages: [text])
            if started { output.events = lose(at: clock) }
            return output
        case .badLines(let count):
            linesBad += count
            return Output()
        case .ended:
            moveTo(now)
            sourceEnded = true
            return finish()
        }
    }

    /// Time passes (the loop wakes a few times at most per second, live).
    public mutating func tick(now: Duration) -> Output {
        guard started, !isFinished else { return Output() }
        // A paced replay's timer: the split predicted between two fixes is said at its instant,
        // and nothing else moves (the track's clock moves with its fixes), so a paced replay says
        // what an unpaced one does (there, the fix after the instant brings it).
        if settings.clock == .track { return Output(events: runner.sayDueSplit()) }
        moveTo(now)
        var output = Output(events: runScript(upTo: clock))
        output.events += checkLost()
        output.events += advanceRunner(to: heldClock(clock))
        return output
    }

    /// A command from a front end, at loop time `now` (track mode: at the track's clock).
    public mutating func command(_ command: SessionCommand, now: Duration) -> Output {
        guard !isFinished else { return Output() }
        moveTo(now)
        if !started {
            switch command {
            case .start:
                let fromFix = lastFix.flatMap { $0.dateKnown ? $0.time : nil }
                return startWorkout(utc: loopBeganUTC?.adding(loopNow) ?? fromFix)
            case .stop:
                stopRequested = true
                return Output(messages: ["stopped before the workout began"])
            default: return Output()
            }
        }
        return Output(events: perform(command, at: clock))
    }

    /// A live heart-rate strap's input at loop time `now` (before the start it only shows in the status).
    public mutating func heartRate(_ input: HeartRateInput, now: Duration) -> Output {
        guard started, !isFinished else { return Output() }
        moveTo(now)
        return Output(events: runner.heartRate(input, at: clock))
    }

    /// The loop time of the next moment the loop should wake for (a second of the phase's
    /// time left turns, a predicted split is due, the GPS would count as lost), nil when only a
    /// status refresh is due.
    public func nextDeadline(now: Duration) -> Duration? {
        guard started, !isFinished, let origin else { return nil }
        if settings.clock == .track {
            // On the track's clock only a paced replay's timer asks (`Settings.trackPace`): for
            // the split, whose instant is the track's time (its fixes' time since the first).
            guard settings.trackPace != nil, let due = runner.splitDueSeconds else { return nil }
            return origin + .seconds(double: due) + .microseconds(1)
        }
        let at = sessionClock(at: now)
        var next = at + .seconds(1)
        let engine = runner.engine
        if engine.state == .active || engine.state == .countdown {
            if let left = engine.remaining(at: at), left > .zero {
                let seconds = left.seconds
                let fraction = seconds - (seconds.rounded(.up) - 1)
                next = min(next, at + .seconds(double: max(0.001, fraction)))
            }
        }
        // A split predicted between two fixes is said at its instant (a microsecond after, so
        // that the clock read on waking, scaled back and forth, is surely past it).
        if let due = runner.splitDueSeconds {
            next = min(next, max(at + .microseconds(1), .seconds(double: due) + .microseconds(1)))
        }
        if gpsState == .fix, let lostAt = watch.lostAtSeconds {
            next = min(next, max(at + .milliseconds(1), .seconds(double: lostAt) + .milliseconds(1)))
        }
        // The wait for the fix taken at the end matters once the end has come (the phase's whole
        // seconds bring the loop there); asked before, it moved with every fix and woke the timer.
        if let hold = plannedHold(), at >= hold.end { next = min(next, max(at + .microseconds(1), hold.until)) }
        return origin + next
    }

    // MARK: Steps

    static let waitingMessage = "waiting for a GPS fix to start the workout (press s, or run `runwalk control start`, to start now)"

    private var clock: Duration { sessionClock(at: loopNow) }

    private mutating func moveTo(_ now: Duration) {
        if settings.clock != .track { loopNow = max(loopNow, now) }
    }

    private mutating func startWorkout(utc: UTCTime?) -> Output {
        started = true
        origin = loopNow
        var output = Output(events: runner.start(at: .zero, utc: utc))
        if !hadPosition, settings.clock != .track {
            output.events += runner.gpsLost(at: .zero, reason: .noFixYet)
        }
        return output
    }

    private mutating func ingest(_ fix: Fix, now: Duration) -> Output {
        if case .track = settings.clock {
            let first = firstTrackTime ?? fix.time
            firstTrackTime = first
            // A time that goes backwards (some receivers do) is held at the last clock.
            loopNow = max(loopNow, fix.time.since(first))
        } else {
            moveTo(now)
        }
        var output = Output()
        if !started {
            lastFix = fix
            let startNow = settings.start == .now && settings.clock == .track
            guard startNow || fix.hasPosition else {
                if !waitingAnnounced {
                    waitingAnnounced = true
                    output.messages.append("GPS: no fix yet, waiting")
                }
                return output
            }
            hadPosition = fix.hasPosition
            // With a wall clock (a live run, even from a track file) the session starts when it ran;
            // the track's own times belong to its fixes.
            output += startWorkout(utc: loopBeganUTC?.adding(loopNow) ?? (fix.dateKnown ? fix.time : nil))
        }
        output.events += runScript(upTo: clock)
        output.events += checkLost()
        if fix.hasPosition {
            if gpsState != .fix {
                output.events += runner.gpsBack(at: clock)
                gpsState = .fix
            }
            hadPosition = true
            watch.position(at: clock.seconds)
        }
        lastFix = fix
        // A fix taken by the end of the workout but arriving after it still counts, at the end.
        var at = clock
        if fix.hasPosition, let end = plannedHold()?.end, clock >= end, belongsBefore(end, fix) {
            at = end
        }
        if fix.hasPosition {
            if let last = lastArrival, fix.time > last.stamp { cadence = fix.time.since(last.stamp) }
            lastArrival = (fix.time, at)
        }
        runnerClock = max(runnerClock, at)
        output.events += runner.ingest(fix, at: at)
        if settings.autoPause, !isFinished, let update = runner.lastUpdate {
            output.events += applyAutoPause(update)
        }
        return output
    }

    private mutating func applyAutoPause(_ update: TelemetryUpdate) -> [SessionEvent] {
        let state = runner.engine.state
        guard state == .active || (state == .paused && autoPaused) else { return [] }
        switch autoPauseDetector.update(update, at: clock.seconds, autoPaused: autoPaused) {
        case .pause?:
            autoPaused = true
            return runner.pause(at: clock, auto: true)
        case .resume?:
            autoPaused = false
            return runner.resume(at: clock, auto: true)
        case nil:
            return []
        }
    }

    private mutating func perform(_ command: SessionCommand, at at: Duration) -> [SessionEvent] {
        runnerClock = max(runnerClock, at)
        let paused = runner.engine.state == .paused
        switch command {
        case .pause:
            autoPaused = false
            autoPauseDetector.reset()
            return runner.pause(at: at)
        case .resume:
            autoPaused = false
            autoPauseDetector.reset()
            return runner.resume(at: at)
        case .toggle:
            return perform(paused ? .resume : .pause, at: at)
        case .skip, .restart, .start:
            if command == .start && runner.engine.state != .countdown { return [] }
            // A skip or restart while paused resumes first (the resume is recorded and said).
            var events = paused ? perform(.resume, at: at) : []
            events += command == .restart ? runner.restart(at: at) : runner.skip(at: at)
            return events
        case .stop:
            stopRequested = true
            return finish().events
        }
    }

    /// Commands given ahead whose moment has come, each carried out at its own moment.
    private mutating func runScript(upTo clock: Duration) -> [SessionEvent] {
        var events: [SessionEvent] = []
        let offset = runner.options.getReady
        while let next = script.first, offset + .seconds(double: next.atSeconds) <= clock, !isFinished {
            script.removeFirst()
            let at = max(runnerClock, offset + .seconds(double: next.atSeconds))
            events += advanceRunner(to: at)
            events += perform(next.command, at: at)
        }
        return events
    }

    private mutating func advanceRunner(to at: Duration) -> [SessionEvent] {
        runnerClock = max(runnerClock, at)
        return runner.advance(to: runnerClock)
    }

    /// The GPS is lost when positions stopped for longer than the watch allows.
    private mutating func checkLost() -> [SessionEvent] {
        guard gpsState == .fix, let lostAt = watch.lostAtSeconds, clock.seconds > lostAt else { return [] }
        if case .session = settings.clock, !realTimeAllowsLost() { return [] }
        return lose(at: max(runnerClock, .seconds(double: lostAt)))
    }

    private func realTimeAllowsLost() -> Bool {
        guard case .session(let scale) = settings.clock, scale > 1, let last = watch.lastPositionSeconds else { return true }
        return (clock.seconds - last) / scale >= settings.signalTimeoutMinimumRealSeconds
    }

    private mutating func lose(at time: Duration) -> [SessionEvent] {
        // The runner marks one gap at a time: a second loss while lost is nothing new.
        if let gap = runner.gpsGaps.last, gap.endSeconds == nil { return [] }
        gpsState = hadPosition ? .lost : .noFix
        gpsLostSinceLoop = (origin ?? .zero) + time
        return runner.gpsLost(at: time, reason: hadPosition ? .signalLost : .noFixYet)
    }

    private mutating func finish() -> Output {
        guard started, runner.engine.state != .completed, runner.engine.state != .stopped else { return Output() }
        var events = advanceRunner(to: clock)
        if runner.engine.state != .completed, runner.engine.state != .stopped { events += runner.stop(at: runnerClock) }
        return Output(events: events)
    }
}
