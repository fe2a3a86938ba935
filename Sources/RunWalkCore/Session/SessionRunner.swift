/// The whole pipeline for one session, the same for live runs and replays:
/// fixes → telemetry → engine → splits and cues.
///
/// The caller supplies the clock: in replay, the time since the track's first epoch; live,
/// a monotonic clock. Nothing here reads time or does I/O.
public struct SessionRunner: Sendable {
    public let workout: Workout
    public let options: SessionOptions
    public private(set) var engine: WorkoutEngine
    public private(set) var telemetry: Telemetry
    public private(set) var splits: SplitTracker
    public private(set) var cues: [Cue] = []
    public private(set) var startUTC: UTCTime?
    public private(set) var epochs = 0
    public private(set) var used = 0
    public private(set) var rejected = 0
    public private(set) var movingSeconds = 0.0
    /// Distance while the workout was active (pauses excluded), metres.
    public private(set) var activeDistanceMetres = 0.0
    public private(set) var lastUpdate: TelemetryUpdate?
    /// Stretches without fixes (live runs), the last one open while the signal is lost.
    public private(set) var gpsGaps: [GPSGap] = []
    /// The UTC time the session clock reads zero at (from the first fix), for the smoother.
    public private(set) var utcAtClockZero: UTCTime?
    /// What happened to the session (start, pauses, skips, GPS, the end), clock seconds.
    public private(set) var eventLog: [SessionEventRecord] = []
    private var planner: CuePlanner
    private var lastTelemetryDistance: Double?
    private var lastMovingClock: Double?
    private var clockOffsetForSplits = 0.0
    private var lastPointSeconds: Double?
    /// The last used fix while active: its clock time and the runner's pace speed then (for dead reckoning).
    private var lastUsedFix: (seconds: Double, speed: Double)?
    /// The most distance the engine has been given; it never goes back, metres.
    private var engineDistanceMetres = 0.0

    public init(workout: Workout, options: SessionOptions = SessionOptions()) {
        self.workout = workout
        self.options = options
        engine = WorkoutEngine(workout: workout, getReady: options.getReady)
        telemetry = Telemetry(settings: options.telemetry)
        splits = SplitTracker(unitMetres: options.units.splitMetres)
        planner = CuePlanner(workout: workout, language: options.language, units: options.units,
                             enabled: options.enabledCues, timing: options.speechTiming,
                             countdownSeconds: engine.countdownSeconds, introduction: options.introduction)
        clockOffsetForSplits = options.getReady.seconds
    }

    /// Starts the workout at `clock`; `utc` is the wall time of that moment when known.
    public mutating func start(at clock: Duration, utc: UTCTime?) -> [SessionEvent] {
        startUTC = utc
        return handle(engine.start(at: clock, distanceMetres: engineDistance(at: clock.seconds)))
    }

    /// Feeds one epoch's fix, observed at `clock`.
    public mutating func ingest(_ fix: Fix, at clock: Duration) -> [SessionEvent] {
        epochs += 1
        if utcAtClockZero == nil { utcAtClockZero = fix.time.adding(.zero - clock) }
        var update = telemetry.ingest(fix)
        update.raw = fix
        if update.accepted { used += 1 } else if fix.latitude != nil { rejected += 1 }
        let delta = max(0, update.distanceMetres - (lastTelemetryDistance ?? update.distanceMetres))
        lastTelemetryDistance = update.distanceMetres
        let running = engine.state == .active
        if running { activeDistanceMetres += delta }
        let seconds = clock.seconds
        if running, update.accepted, let last = lastMovingClock, (update.speedMetresPerSecond ?? 0) >= options.movingSpeedThreshold {
            movingSeconds += max(0, min(seconds - last, 10))
        }
        if update.accepted { lastMovingClock = seconds }
        lastUpdate = update
        if running, update.accepted {
            lastUsedFix = (seconds, Self.paceSpeed(update))
        }
        var events: [SessionEvent] = [.telemetry(update, clockSeconds: seconds)]
        let phaseAtFix = engine.phaseIndex
        events += handle(engine.advance(to: clock, distanceMetres: engineDistance(at: seconds)))
        events += planClosing(at: seconds)
        if running, update.accepted, let lat = update.latitude, let lon = update.longitude {
            let elapsed = seconds - clockOffsetForSplits
            let point = TrackPoint(
                elapsedSeconds: elapsed, time: update.time, latitude: lat, longitude: lon,
                altitudeMSL: update.altitudeMSL, distanceMetres: activeDistanceMetres,
                speedMetresPerSecond: update.speedMetresPerSecond, paceSecondsPerKm: update.paceSecondsPerKm,
                phaseIndex: phaseAtFix, rawLatitude: fix.latitude, rawLongitude: fix.longitude,
                afterGap: lastPointSeconds.map { elapsed - $0 > options.gapSeconds } ?? false, hdop: fix.hdop)
            lastPointSeconds = elapsed
            events.append(.trackPoint(point))
        }
        if running {
            for split in splits.add(elapsedSeconds: seconds - clockOffsetForSplits, distanceMetres: activeDistanceMetres) {
                events.append(.split(split))
                events += record(planner.cues(for: split, atSeconds: split.elapsedSeconds + clockOffsetForSplits,
                                              upcoming: upcomingBoundary))
            }
        }
        return events
    }

    /// Moves time on without a fix (live, between fixes or while the GPS is lost).
    public mutating func advance(to clock: Duration) -> [SessionEvent] {
        handle(engine.advance(to: clock, distanceMetres: engineDistance(at: clock.seconds))) + planClosing(at: clock.seconds)
    }

    /// Pauses the workout clock; `auto` when auto-pause found the runner standing.
    public mutating func pause(at clock: Duration, auto: Bool = false) -> [SessionEvent] {
        guard engine.state == .active || engine.state == .countdown else { return [] }
        let distance = engineDistance(at: clock.seconds)
        // No reckoning across a pause: the next fix starts it afresh.
        lastUsedFix = nil
        var events = handle(engine.pause(at: clock, distanceMetres: distance))
        if engine.state == .paused { events += log(auto ? .autoPause : .pause, at: clock.seconds) }
        return events
    }

    /// Resumes a paused workout; `auto` when auto-pause saw the runner move again.
    public mutating func resume(at clock: Duration, auto: Bool = false) -> [SessionEvent] {
        guard engine.state == .paused else { return [] }
        planner.resumeContext = engine.currentPhase.map { phase in
            let remaining: PhaseTarget?
            if let left = engine.remaining(at: clock) {
                remaining = .duration(left)
            } else if let target = phase.target.distanceMetres {
                remaining = .distance(metres: max(0, target - engine.distanceInPhase(total: activeDistanceMetres)))
            } else {
                remaining = nil
            }
            return (phase.kind, remaining)
        }
        let events = log(auto ? .autoResume : .resume, at: clock.seconds)
        return events + handle(engine.resume(at: clock, distanceMetres: engineDistance(at: clock.seconds)))
    }

    /// Ends the current phase now and starts the next.
    public mutating func skip(at clock: Duration) -> [SessionEvent] {
        handle(engine.skip(at: clock, distanceMetres: engineDistance(at: clock.seconds)))
    }

    /// Starts the current phase again from its beginning.
    public mutating func restart(at clock: Duration) -> [SessionEvent] {
        handle(engine.restart(at: clock, distanceMetres: engineDistance(at: clock.seconds)))
    }

    public mutating func stop(at clock: Duration) -> [SessionEvent] {
        handle(engine.stop(at: clock, distanceMetres: engineDistance(at: clock.seconds)))
    }

    /// The distance the engine goes by at `seconds`: the fixes' distance, and while fixes are
    /// missing (a gap, live) that plus the distance reckoned since the last one, so phases that
    /// end inside the gap get their share and a distance phase can end in it. When fixes return,
    /// the telemetry's bridge over the gap takes over; the engine's distance never goes back
    /// (a reckoning that was too long is absorbed by the next metres).
    private mutating func engineDistance(at seconds: Double) -> Double {
        var distance = activeDistanceMetres
        if engine.state == .active, let fix = lastUsedFix, seconds - fix.seconds > options.telemetry.gapSeconds {
            distance += reckonedDistance(from: fix, to: seconds)
        }
        engineDistanceMetres = max(engineDistanceMetres, distance)
        return engineDistanceMetres
    }

    /// Distance since `fix` by the workout's plan: the phase the runner was in at the pace they
    /// had; a later phase at the runner's average over earlier phases of its kind (else that pace too).
    private func reckonedDistance(from fix: (seconds: Double, speed: Double), to seconds: Double) -> Double {
        var spans = engine.records.map { (kind: $0.planned.kind, start: $0.start.seconds, end: $0.end.seconds) }
        if let current = engine.currentPhase { spans.append((current.kind, engine.phaseStart.seconds, seconds)) }
        var metres = 0.0
        for span in spans where span.end > fix.seconds {
            let overlap = min(span.end, seconds) - max(span.start, fix.seconds)
            guard overlap > 0 else { continue }
            let startedBeforeGap = span.start <= fix.seconds
            metres += overlap * (startedBeforeGap ? fix.speed : typicalSpeed(of: span.kind) ?? fix.speed)
        }
        return metres
    }

    /// The runner's average speed over completed phases of `kind` (at least 30 s of them), m/s.
    private func typicalSpeed(of kind: PhaseKind) -> Double? {
        let same = engine.records.filter { $0.planned.kind == kind && $0.reason == .completed }
        let seconds = same.reduce(0) { $0 + $1.activeDuration.seconds }
        guard seconds >= 30 else { return nil }
        return same.reduce(0) { $0 + $1.distanceMetres } / seconds
    }

    /// The GPS signal is gone at `clock` (no fixes, or the source went away): marks a gap and
    /// announces it once, until `gpsBack(at:)`. Time keeps moving the workout on.
    public mutating func gpsLost(at clock: Duration, reason: GPSGap.Reason = .signalLost) -> [SessionEvent] {
        if let last = gpsGaps.last, last.endSeconds == nil { return [] }
        var events = advance(to: clock)
        gpsGaps.append(GPSGap(startSeconds: clock.seconds, reason: reason))
        events.append(.gps(.lost(atSeconds: clock.seconds, reason: reason)))
        events += log(reason == .noFixYet ? .gpsNoFixYet : .gpsLost, at: clock.seconds)
        events += record(planner.gps(lost: true, reason: reason, atSeconds: clock.seconds, upcoming: upcomingBoundary))
        return events
    }

    /// Fixes are back at `clock`: closes the open gap and announces it.
    public mutating func gpsBack(at clock: Duration) -> [SessionEvent] {
        guard let last = gpsGaps.indices.last, gpsGaps[last].endSeconds == nil else { return [] }
        gpsGaps[last].endSeconds = clock.seconds
        var events: [SessionEvent] = [.gps(.back(atSeconds: clock.seconds))]
        events += log(.gpsBack, at: clock.seconds)
        events += record(planner.gps(lost: false, reason: gpsGaps[last].reason, atSeconds: clock.seconds, upcoming: upcomingBoundary))
        return events
    }

    /// The offline smoother's view of the workout's phases, in one smoothing pass: the distance
    /// over them (metres) and the splits from it (the live `splits` are what the runner heard).
    /// Nil without smoother history.
    public var smoothed: (distanceMetres: Double, splits: [Split])? {
        guard let zero = utcAtClockZero, let first = engine.records.first, let last = engine.records.last else { return nil }
        let series = telemetry.smoothedDistanceSeries(from: zero.adding(first.start), to: zero.adding(last.end))
        guard let total = series.last?.metres else { return nil }
        let startElapsed = first.start.seconds - clockOffsetForSplits
        var tracker = SplitTracker(unitMetres: splits.unitMetres)
        for (seconds, metres) in series {
            _ = tracker.add(elapsedSeconds: startElapsed + seconds, distanceMetres: metres)
        }
        return (total, tracker.splits)
    }

    /// The distance over the workout's phases after the offline smoother, metres.
    public var smoothedDistanceMetres: Double? { smoothed?.distanceMetres }

    /// The session's summary so far (the contract JSON's content); `outcome` says how it ended
    /// (by default from the engine: completed, stopped or in progress).
    public func summary(linesBad: Int, outcome: SessionOutcome? = nil) -> Summary {
        Summary(runner: self, linesBad: linesBad, outcome: outcome)
    }

    private mutating func log(_ kind: SessionEventKind, at seconds: Double) -> [SessionEvent] {
        let record = SessionEventRecord(kind: kind, atSeconds: seconds, phaseIndex: engine.phaseIndex)
        eventLog.append(record)
        return [.happened(record)]
    }

    private mutating func handle(_ engineEvents: [EngineEvent]) -> [SessionEvent] {
        var events: [SessionEvent] = []
        for event in engineEvents {
            events.append(.engine(event))
            switch event {
            case .phaseStarted(0, let at) where !eventLog.contains(where: { $0.kind == .start }):
                events += log(.start, at: at.seconds)
            case .phaseEnded(let record) where record.reason == .skipped || record.reason == .restarted:
                let entry = SessionEventRecord(kind: record.reason == .skipped ? .skip : .restart,
                                               atSeconds: record.end.seconds, phaseIndex: record.index)
                eventLog.append(entry)
                events.append(.happened(entry))
            case .workoutCompleted(let at): events += log(.completed, at: at.seconds)
            case .workoutStopped(let at): events += log(.stopped, at: at.seconds)
            default: break
            }
            var said = planner.cues(for: event, upcoming: upcomingBoundary)
            if case .workoutCompleted(let at) = event {
                let total = engine.records.reduce(0) { $0 + $1.distanceMetres }
                said += planner.completion(atSeconds: at.seconds, distanceMetres: total,
                                           durationSeconds: at.seconds - clockOffsetForSplits)
            }
            events += record(said)
        }
        return events
    }

    /// The runner's current (pace) speed in an update, metres per second; 0 while standing.
    private static func paceSpeed(_ update: TelemetryUpdate?) -> Double {
        update?.paceSecondsPerKm.map { 1000 / $0 } ?? 0
    }

    /// How long before the closing cue must start it is placed: fixes come at least once a second.
    static let closingLeadSeconds = 1.5

    /// Places the closing cue ahead of the workout's end so that it ends as the last phase does:
    /// a time phase's end is known, a distance phase's is estimated from the current pace (only
    /// while moving). The totals are those expected at that end.
    private mutating func planClosing(at seconds: Double) -> [SessionEvent] {
        guard engine.state == .active, let index = engine.phaseIndex, index == workout.phases.count - 1,
              !planner.closed else { return [] }
        let speed = Self.paceSpeed(lastUpdate)
        let end: Double, distanceAtEnd: Double
        switch workout.phases[index].target {
        case .duration:
            guard let phaseEnd = engine.phaseEnd else { return [] }
            end = phaseEnd.seconds
            distanceAtEnd = engineDistanceMetres + speed * max(0, end - seconds)
        case .distance(let metres):
            guard speed >= options.movingSpeedThreshold else { return [] }
            let remaining = max(0, metres - engine.distanceInPhase(total: engineDistanceMetres))
            end = seconds + remaining / speed
            distanceAtEnd = engineDistanceMetres + remaining
        }
        return record(planner.closing(endingAt: end, nowSeconds: seconds, distanceMetres: distanceAtEnd,
                                      durationSeconds: end - clockOffsetForSplits, leadSeconds: Self.closingLeadSeconds))
    }

    /// The time boundary the engine is heading for, for the cue planner's reservations.
    private var upcomingBoundary: CuePlanner.Boundary? {
        guard let end = engine.phaseEnd else { return nil }
        let next = engine.state == .countdown ? 0 : engine.phaseIndex.map { $0 + 1 }
        return CuePlanner.Boundary(seconds: end.seconds, nextIndex: next.flatMap { $0 < workout.phases.count ? $0 : nil })
    }

    private mutating func record(_ new: [Cue]) -> [SessionEvent] {
        cues += new
        return new.map(SessionEvent.cue)
    }
}
