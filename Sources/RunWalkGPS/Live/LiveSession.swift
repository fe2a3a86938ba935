import RunWalkCore

/// How a live session tells time.
public enum LiveClockMode: Sendable, Equatable {
    /// A monotonic clock, `scale` times real time (1 live; more for simulators that feed faster).
    case monotonic(scale: Double)
    /// The fixes' own times, as in replay (for sources fed as fast as possible).
    case track
}

/// When the workout starts.
public enum LiveStartPolicy: String, Sendable, Equatable, CaseIterable {
    /// At once: the workout's timer runs with or without GPS.
    case now
    /// At the first fix with a position.
    case fix
}

/// Settings of a live session.
public struct LiveSettings: Sendable, Equatable {
    public var clock: LiveClockMode = .monotonic(scale: 1)
    public var start: LiveStartPolicy = .now
    /// Without a position for `SessionOptions.gpsLostAfterSeconds` (session seconds), the GPS
    /// counts as lost, if also for at least this much real time: a shorter stall is scheduling jitter (this
    /// matters when the clock runs faster than real time).
    public var signalTimeoutMinimumRealSeconds = 1.0

    public init(clock: LiveClockMode = .monotonic(scale: 1), start: LiveStartPolicy = .now) {
        self.clock = clock
        self.start = start
    }
}

/// The GPS as the session sees it.
public enum GPSState: String, Sendable, Equatable {
    case waiting, ok, lost
}

/// A live session's logic, without I/O or clocks: the run loop feeds it location events and
/// ticks with the monotonic time it read, and carries out what comes back.
///
/// It turns monotonic time into the session clock, starts the workout, ingests fixes, marks
/// GPS gaps (source unavailable, or no position for `SessionOptions.gpsLostAfterSeconds`) and ends the
/// session when the workout is complete, the source has ended or a stop is asked for.
public struct LiveSession: Sendable {
    /// What one call produced: session events for the hooks, messages for the user.
    public struct Output: Sendable, Equatable {
        public var events: [SessionEvent] = []
        public var messages: [String] = []
    }

    public let settings: LiveSettings
    public private(set) var runner: SessionRunner
    public private(set) var started = false
    /// The source ended (a file) before the workout did.
    public private(set) var sourceEnded = false
    public private(set) var linesBad = 0
    public private(set) var gps: GPSState = .waiting
    /// The session clock at the latest call.
    public private(set) var clock: Duration = .zero
    private var origin: Duration?
    private var firstTrackTime: UTCTime?
    private var lastPositionClock: Duration?
    private var lastPositionNow: Duration?
    private var hadPosition = false
    private var waitingAnnounced = false

    public init(workout: Workout, options: SessionOptions = SessionOptions(), settings: LiveSettings = LiveSettings()) {
        self.settings = settings
        runner = SessionRunner(workout: workout, options: options)
    }

    /// True once the workout is complete or stopped.
    public var isFinished: Bool {
        runner.engine.state == .completed || runner.engine.state == .stopped
    }

    /// Starts the session at monotonic time `now` when the policy is to start at once;
    /// `utc` is the wall time of that moment.
    public mutating func begin(now: Duration, utc: UTCTime?) -> Output {
        guard settings.start == .now, settings.clock != .track else {
            return Output(messages: ["waiting for the first GPS fix to start the workout"])
        }
        return startWorkout(now: now, utc: utc)
    }

    /// Time passes (called a few times a second by the run loop).
    public mutating func tick(now: Duration) -> Output {
        guard started, !isFinished, case .monotonic = settings.clock else { return Output() }
        clock = sessionClock(now)
        var output = Output(events: runner.advance(to: clock))
        output.events += checkTimeout(now: now)
        return output
    }

    /// One event from the location source, received at monotonic time `now`.
    public mutating func handle(_ event: LocationEvent, now: Duration) -> Output {
        guard !isFinished else { return Output() }
        switch event {
        case .fix(let fix):
            return ingest(fix, now: now)
        case .connected(let text):
            return Output(messages: [text])
        case .unavailable(let text):
            var output = Output(messages: [text])
            if started {
                if case .monotonic = settings.clock { clock = sessionClock(now) }
                output.events = lose()
            }
            return output
        case .warning(let text):
            return Output(messages: [text])
        case .badLines(let count):
            linesBad += count
            return Output()
        case .ended:
            sourceEnded = true
            return finish(now: now)
        }
    }

    /// Stops the session (a signal, or the source gave up) at monotonic time `now`.
    public mutating func stop(now: Duration) -> Output {
        finish(now: now)
    }

    /// The summary: `incomplete` when the source ended before the workout.
    public func summary() -> Summary {
        var summary = runner.summary(linesBad: linesBad)
        if sourceEnded, runner.engine.state != .completed { summary.state = "incomplete" }
        return summary
    }

    // MARK: Steps

    private mutating func startWorkout(now: Duration, utc: UTCTime?) -> Output {
        started = true
        origin = now
        clock = .zero
        var output = Output(events: runner.start(at: .zero, utc: utc))
        if !hadPosition {
            output.events += runner.gpsLost(at: .zero, reason: .noFixYet)
            gps = .waiting
        }
        return output
    }

    private mutating func ingest(_ fix: Fix, now: Duration) -> Output {
        var output = Output()
        if !started {
            switch settings.clock {
            case .track:
                firstTrackTime = fix.time
                hadPosition = fix.hasPosition
                output = startWorkout(now: now, utc: fix.dateKnown ? fix.time : nil)
            case .monotonic:
                guard fix.hasPosition else {
                    if !waitingAnnounced {
                        waitingAnnounced = true
                        output.messages.append("GPS: no fix yet, waiting")
                    }
                    return output
                }
                hadPosition = true
                output = startWorkout(now: now, utc: fix.dateKnown ? fix.time : nil)
            }
        }
        switch settings.clock {
        case .monotonic: clock = sessionClock(now)
        case .track: clock = max(clock, fix.time.since(firstTrackTime ?? fix.time))
        }
        if fix.hasPosition {
            if gps != .ok {
                output.events += runner.gpsBack(at: clock)
                gps = .ok
            }
            hadPosition = true
            lastPositionClock = clock
            lastPositionNow = now
        } else if !hadPosition, !waitingAnnounced {
            waitingAnnounced = true
            output.messages.append("GPS: no fix yet, waiting")
        }
        output.events += runner.ingest(fix, at: clock)
        if !isFinished { output.events += checkTimeout(now: now) }
        return output
    }

    private mutating func checkTimeout(now: Duration) -> [SessionEvent] {
        guard gps == .ok, let last = lastPositionClock,
              (clock - last).seconds > runner.options.gpsLostAfterSeconds else { return [] }
        if case .monotonic = settings.clock, let lastNow = lastPositionNow,
           (now - lastNow).seconds < settings.signalTimeoutMinimumRealSeconds {
            return []
        }
        return lose()
    }

    private mutating func lose() -> [SessionEvent] {
        if let last = runner.gpsGaps.last, last.endSeconds == nil { return [] }
        gps = hadPosition ? .lost : .waiting
        return runner.gpsLost(at: clock, reason: hadPosition ? .signalLost : .noFixYet)
    }

    private mutating func finish(now: Duration) -> Output {
        guard started, !isFinished else { return Output() }
        if case .monotonic = settings.clock { clock = sessionClock(now) }
        var output = Output(events: runner.advance(to: clock))
        if !isFinished { output.events += runner.stop(at: clock) }
        return output
    }

    private func sessionClock(_ now: Duration) -> Duration {
        guard case .monotonic(let scale) = settings.clock, let origin else { return clock }
        let elapsed = now - origin
        return max(clock, scale == 1 ? elapsed : elapsed * scale)
    }
}
