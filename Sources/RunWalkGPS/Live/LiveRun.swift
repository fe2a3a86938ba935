import Foundation
import RunWalkCore

/// What the run loop shows a glancing user once a second.
public struct LiveStatus: Sendable, Equatable {
    /// Seconds since the workout's start (nil before it started).
    public var elapsedSeconds: Double?
    public var state: WorkoutEngine.State
    public var phaseIndex: Int?
    public var phaseCount: Int
    public var phaseKind: PhaseKind?
    /// Seconds left in a time phase; metres left in a distance phase.
    public var remainingSeconds: Double?
    public var remainingMetres: Double?
    public var distanceMetres: Double
    public var paceSecondsPerKm: Double?
    public var gps: GPSState
}

/// Runs a live session: a location source and a monotonic clock drive a `LiveSession`;
/// every session event goes to `onEvent` (the hook for voice, recorder and display).
///
/// The source reads on its own thread; the loop merges its events with ticks and stop
/// requests into one ordered stream, so the session is only ever touched from here.
public struct LiveRun: Sendable {
    public var workout: Workout
    public var options: SessionOptions
    public var settings: LiveSettings
    /// How often the clock is polled between fixes (wall time).
    public var tickInterval: Duration = .milliseconds(100)
    /// How often `onStatus` is called (wall time).
    public var statusInterval: Duration = .seconds(1)

    public init(workout: Workout, options: SessionOptions = SessionOptions(), settings: LiveSettings = LiveSettings()) {
        self.workout = workout
        self.options = options
        self.settings = settings
    }

    /// What ended the run, and what it produced.
    public struct Result: Sendable {
        public var summary: Summary
        public var session: LiveSession
    }

    enum Input: Sendable {
        case location(LocationEvent)
        case tick
        case stop
        case sourceFinished
    }

    /// Runs until the workout is complete, the source has ended, or `stopRequests` yields.
    public func run(
        source: any LocationSource,
        stopRequests: AsyncStream<Void>? = nil,
        onEvent: @escaping (SessionEvent) -> Void = { _ in },
        onMessage: @escaping (String) -> Void = { _ in },
        onStatus: @escaping (LiveStatus) -> Void = { _ in }
    ) async -> Result {
        let (inputs, feed) = AsyncStream<Input>.makeStream(bufferingPolicy: .unbounded)
        let events = source.events()
        let reader = Task {
            for await event in events { feed.yield(.location(event)) }
            feed.yield(.sourceFinished)
        }
        let interval = tickInterval
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                feed.yield(.tick)
            }
        }
        let stopper = Task {
            guard let stopRequests else { return }
            for await _ in stopRequests { feed.yield(.stop); return }
        }
        defer {
            reader.cancel()
            ticker.cancel()
            stopper.cancel()
        }

        let monotonic = ContinuousClock()
        let zero = monotonic.now
        func now() -> Duration { monotonic.now - zero }
        var session = LiveSession(workout: workout, options: options, settings: settings)
        var lastStatus: Duration?
        func deliver(_ output: LiveSession.Output) {
            output.messages.forEach(onMessage)
            output.events.forEach(onEvent)
        }
        deliver(session.begin(now: now(), utc: Self.wallClockUTC()))
        for await input in inputs {
            let at = now()
            switch input {
            case .location(let event): deliver(session.handle(event, now: at))
            case .tick: deliver(session.tick(now: at))
            case .stop: deliver(session.stop(now: at))
            case .sourceFinished: deliver(session.handle(.ended, now: at))
            }
            if lastStatus.map({ at - $0 >= statusInterval }) ?? true {
                lastStatus = at
                onStatus(Self.status(of: session))
            }
            if session.isFinished || (session.sourceEnded && !session.started) { break }
        }
        return Result(summary: session.summary(), session: session)
    }

    /// The status line's content.
    static func status(of session: LiveSession) -> LiveStatus {
        let engine = session.runner.engine
        let total = session.runner.activeDistanceMetres
        var remainingMetres: Double?
        if let target = engine.currentPhase?.target.distanceMetres {
            remainingMetres = max(0, target - engine.distanceInPhase(total: total))
        }
        return LiveStatus(
            elapsedSeconds: session.started ? session.clock.seconds - session.runner.options.getReady.seconds : nil,
            state: engine.state, phaseIndex: engine.phaseIndex, phaseCount: session.runner.workout.phases.count,
            phaseKind: engine.currentPhase?.kind, remainingSeconds: engine.remaining(at: session.clock)?.seconds,
            remainingMetres: remainingMetres, distanceMetres: total,
            paceSecondsPerKm: session.runner.lastUpdate?.paceSecondsPerKm, gps: session.gps)
    }

    /// The system's wall time, for the live session's start (the core never reads it).
    static func wallClockUTC() -> UTCTime {
        UTCTime(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
    }
}
