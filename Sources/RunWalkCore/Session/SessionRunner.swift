/// One session's computing, the same for live runs and replays: the workout engine, the
/// session's telemetry (`SessionTelemetry`), its cues (`SessionCues`) and the event log,
/// each input passed to them in one order; the summary comes from `SummaryBuilder`.
///
/// The runtime's `SessionDriver` decides when each input comes (the session clock, starting,
/// GPS lost and back, commands, auto-pause); the caller supplies the clock: in replay, the
/// time since the track's first epoch; live, a monotonic clock. Nothing here reads time or
/// does I/O.
public struct SessionRunner: Sendable {
    /// The workout being run.
    public let workout: Workout
    /// Units, language, cues, telemetry settings.
    public let options: SessionOptions
    /// The phases and their clock.
    public private(set) var engine: WorkoutEngine
    /// Fixes, distance, moving time, splits and track points.
    public internal(set) var session: SessionTelemetry
    /// What is said and when.
    public internal(set) var voice: SessionCues
    /// The wall time of the start, when known.
    public private(set) var startUTC: UTCTime?
    /// Stretches without fixes (live runs), the last one open while the signal is lost.
    public private(set) var gpsGaps: [GPSGap] = []
    /// What happened to the session (start, pauses, skips, GPS, the end), clock seconds.
    public private(set) var eventLog: [SessionEventRecord] = []
    /// The phases' bands: coaching, time in, below and above, and the heart rate.
    public private(set) var targets: SessionTargets
    /// Every heart-rate sample, in time order, clock seconds.
    public private(set) var heartRate: [HeartRateSample] = []
    /// The live strap is lost (between `hr_lost` and `hr_back`).
    public private(set) var heartRateStrapLost = false
    /// When the live strap is said lost and back (silence, no skin contact, or gone).
    public private(set) var heartRateSensor = HeartRateSensorWatch()

    /// A session of `workout`, not started.
    public init(workout: Workout, options: SessionOptions = SessionOptions()) {
        self.workout = workout
        self.options = options
        engine = WorkoutEngine(workout: workout, getReady: options.getReady)
        session = SessionTelemetry(options: options)
        voice = SessionCues(workout: workout, options: options, countdownSeconds: engine.countdownSeconds)
        var coaching = options.targetCoaching
        coaching.backInBand = options.enabledCues.contains(.targetBack)
        targets = SessionTargets(settings: coaching)
    }

    /// The filter and its smoother history.
    public var telemetry: Telemetry { session.telemetry }
    /// The live splits (what the runner heard).
    public var splits: SplitTracker { session.splits }
    /// Every cue placed so far.
    public var cues: [Cue] { voice.cues }
    /// Epochs fed, positions used and positions rejected.
    public var epochs: Int { session.epochs }
    /// Positions used.
    public var used: Int { session.used }
    /// Positions gated out.
    public var rejected: Int { session.rejected }
    /// Moving time so far, seconds.
    public var movingSeconds: Double { session.movingTime.seconds }
    /// Distance while the workout was active (pauses excluded), metres.
    public var activeDistanceMetres: Double { session.activeDistanceMetres }
    /// The telemetry's latest update.
    public var lastUpdate: TelemetryUpdate? { session.lastUpdate }
    /// The UTC time the session clock reads zero at (from the first fix), for the smoother.
    public var utcAtClockZero: UTCTime? { session.utcAtClockZero }
    /// The session clock (seconds) at which a split predicted between two fixes is to be said;
    /// the loop wakes for it (`advance(to:)` says it). Nil when none is pending.
    public var splitDueSeconds: Double? { session.splitForecast.dueSeconds }

    /// Starts the workout at `clock`; `utc` is the wall time of that moment when known.
    public mutating func start(at clock: Duration, utc: UTCTime?) -> [SessionEvent] {
        startUTC = utc
        return handle(engine.start(at: clock, distanceMetres: engineDistance(at: clock)))
    }

    /// Feeds one epoch's fix, observed at `clock`.
    public mutating func ingest(_ fix: Fix, at clock: Duration) -> [SessionEvent] {
        // A split predicted before this fix came was reached first (a replay says it here).
        let predicted = sayDueSplit(at: clock)
        let running = engine.state == .active
        var (update, point) = session.ingest(fix, atClock: clock, running: running, phaseIndex: engine.phaseIndex)
        let seconds = clock.seconds
        var events: [SessionEvent] = predicted + [.telemetry(update, clockSeconds: seconds)]
        if let bpm = fix.heartRateBPM {
            events += ingestHeartRate(HeartRateSample(seconds: seconds, bpm: bpm, rrIntervalsSeconds: fix.heartRateRRSeconds, fromTrackFile: true))
        }
        // A strap's sample stands for the fixes after it; a file's belongs to its own point only.
        if point?.heartRateBPM == nil, let last = heartRate.last, !last.fromTrackFile,
           seconds - last.seconds <= HeartRateStats.holdSeconds {
            point?.heartRateBPM = last.bpm
        }
        targets.pace(update.stationary ? nil : update.paceSecondsPerKm, atSeconds: seconds)
        events += handle(engine.advance(to: clock, distanceMetres: engineDistance(at: clock), heartRate: targets.heartRate))
        events += coach(at: clock)
        events += closing(at: seconds)
        events += sayHeartRateSensor(heartRateSensor.tick(at: seconds), at: clock)
        if let point { events.append(.trackPoint(point)) }
        if running {
            for split in session.completedSplits(atSeconds: seconds) { events += announce(split, at: clock) }
            if engine.state == .active { session.forecastSplit(atSeconds: seconds) } else { session.cancelSplitForecast() }
        }
        return events
    }

    /// Takes one heart-rate sample (its `seconds` on the session clock); one older than the last
    /// is dropped, so the samples stay in time order.
    public mutating func ingestHeartRate(_ sample: HeartRateSample) -> [SessionEvent] {
        if let last = heartRate.last, sample.seconds < last.seconds { return [] }
        heartRate.append(sample)
        // The same sample drives the phase's heart-rate band and its `until hr` condition.
        targets.heartRate(HeartRateReading(bpm: Double(sample.bpm), time: .seconds(sample.seconds)))
        return [.heartRate(sample)]
    }

    /// A live strap's input at `clock`: a measurement becomes a sample (none when it carries no
    /// heart rate: 0, 255, no contact), a loss and a return are logged once each.
    public mutating func heartRate(_ input: HeartRateInput, at clock: Duration) -> [SessionEvent] {
        let said = sayHeartRateSensor(heartRateSensor.handle(input, at: clock.seconds), at: clock)
        return logHeartRate(input, at: clock) + said
    }

    /// The strap's input in the event log: a loss and a return once each, a measurement as a sample.
    private mutating func logHeartRate(_ input: HeartRateInput, at clock: Duration) -> [SessionEvent] {
        switch input {
        case .measurement(let measurement):
            var events: [SessionEvent] = []
            if heartRateStrapLost {
                heartRateStrapLost = false
                events += log(.heartRateBack, at: clock.seconds)
            }
            guard let sample = HeartRateSample(seconds: clock.seconds, measurement: measurement) else { return events }
            return events + ingestHeartRate(sample)
        case .lost:
            guard !heartRateStrapLost else { return [] }
            heartRateStrapLost = true
            return log(.heartRateLost, at: clock.seconds)
        case .connected:
            guard heartRateStrapLost else { return [] }
            heartRateStrapLost = false
            return log(.heartRateBack, at: clock.seconds)
        }
    }

    /// The latest heart rate, when the strap's last sample is at most `HeartRateStats.holdSeconds`
    /// older than `clock`.
    public func currentHeartRate(at clock: Duration) -> Int? {
        guard let last = heartRate.last, clock.seconds - last.seconds <= HeartRateStats.holdSeconds else { return nil }
        return last.bpm
    }

    /// Moves time on without a fix (live, between fixes or while the GPS is lost).
    public mutating func advance(to clock: Duration) -> [SessionEvent] {
        sayDueSplit(at: clock) + handle(engine.advance(to: clock, distanceMetres: engineDistance(at: clock), heartRate: targets.heartRate))
            + coach(at: clock) + closing(at: clock.seconds) + sayHeartRateSensor(heartRateSensor.tick(at: clock.seconds), at: clock)
    }

    /// Says the strap lost or back, until the workout has ended.
    private mutating func sayHeartRateSensor(_ announcements: [HeartRateSensorWatch.Announcement], at clock: Duration) -> [SessionEvent] {
        guard engine.state != .completed, engine.state != .stopped else { return [] }
        return announcements.flatMap { announcement in
            voice.heartRateSensor(lost: announcement == .lost, atSeconds: clock.seconds, engine: engine).map(SessionEvent.cue)
        }
    }

    /// A heart-rate reading (bpm at its own clock time), then time moves on to `clock`: an
    /// `until hr` phase may end on it, and a heart-rate band is measured by it.
    public mutating func heartRate(_ reading: HeartRateReading, at clock: Duration) -> [SessionEvent] {
        targets.heartRate(reading)
        return advance(to: clock)
    }

    /// Counts the time in the band and says the coach's advice, if the voice lets it.
    private mutating func coach(at clock: Duration) -> [SessionEvent] {
        guard engine.state == .active else {
            targets.idle()
            return []
        }
        let seconds = clock.seconds
        guard let advice = targets.step(atSeconds: seconds, activeSeconds: engine.elapsedInPhase(at: clock).seconds) else {
            return []
        }
        let said = voice.target(advice, atSeconds: seconds, engine: engine, speed: session.paceSpeed,
                                distance: session.engineDistanceMetres)
        if !said.isEmpty { targets.said(advice, atSeconds: seconds) }
        return said.map(SessionEvent.cue)
    }

    /// Pauses the workout clock; `auto` when auto-pause found the runner standing.
    public mutating func pause(at clock: Duration, auto: Bool = false) -> [SessionEvent] {
        guard engine.state == .active || engine.state == .countdown else { return [] }
        var events = settleSplitForecast(at: clock)
        let distance = engineDistance(at: clock)
        // No reckoning across a pause: the next fix starts it afresh.
        session.forgetLastUsedFix()
        events += handle(engine.pause(at: clock, distanceMetres: distance))
        if engine.state == .paused { events += log(auto ? .autoPause : .pause, at: clock.seconds) }
        return events
    }

    /// Resumes a paused workout; `auto` when auto-pause saw the runner move again.
    public mutating func resume(at clock: Duration, auto: Bool = false) -> [SessionEvent] {
        guard engine.state == .paused else { return [] }
        session.cancelSplitForecast()
        voice.prepareResume(at: clock, engine: engine, activeDistanceMetres: session.activeDistanceMetres)
        let events = log(auto ? .autoResume : .resume, at: clock.seconds)
        return events + handle(engine.resume(at: clock, distanceMetres: engineDistance(at: clock)))
    }

    /// Ends the current phase now and starts the next.
    public mutating func skip(at clock: Duration) -> [SessionEvent] {
        settleSplitForecast(at: clock) + handle(engine.skip(at: clock, distanceMetres: engineDistance(at: clock)))
    }

    /// Starts the current phase again from its beginning.
    public mutating func restart(at clock: Duration) -> [SessionEvent] {
        settleSplitForecast(at: clock) + handle(engine.restart(at: clock, distanceMetres: engineDistance(at: clock)))
    }

    /// Stops the workout at `clock` (it is finalised as stopped).
    public mutating func stop(at clock: Duration) -> [SessionEvent] {
        settleSplitForecast(at: clock) + handle(engine.stop(at: clock, distanceMetres: engineDistance(at: clock)))
    }

    /// The GPS signal is gone at `clock` (no fixes, or the source went away): marks a gap and
    /// announces it once, until `gpsBack(at:)`. Time keeps moving the workout on.
    public mutating func gpsLost(at clock: Duration, reason: GPSGap.Reason = .signalLost) -> [SessionEvent] {
        if let last = gpsGaps.last, last.endSeconds == nil { return [] }
        var events = advance(to: clock)
        session.cancelSplitForecast()
        gpsGaps.append(GPSGap(startSeconds: clock.seconds, reason: reason))
        events.append(.gps(.lost(atSeconds: clock.seconds, reason: reason)))
        events += log(reason == .noFixYet ? .gpsNoFixYet : .gpsLost, at: clock.seconds)
        events += voice.gps(lost: true, reason: reason, atSeconds: clock.seconds, engine: engine).map(SessionEvent.cue)
        return events
    }

    /// Fixes are back at `clock`: closes the open gap and announces it.
    public mutating func gpsBack(at clock: Duration) -> [SessionEvent] {
        guard let last = gpsGaps.indices.last, gpsGaps[last].endSeconds == nil else { return [] }
        gpsGaps[last].endSeconds = clock.seconds
        var events: [SessionEvent] = [.gps(.back(atSeconds: clock.seconds))]
        events += log(.gpsBack, at: clock.seconds)
        events += voice.gps(lost: false, reason: gpsGaps[last].reason, atSeconds: clock.seconds, engine: engine).map(SessionEvent.cue)
        return events
    }

    /// The offline smoother's view of the workout's phases, in one smoothing pass: the distance
    /// over them (metres) and the splits from it (the live `splits` are what the runner heard).
    /// Nil without smoother history.
    public var smoothed: (distanceMetres: Double, splits: [Split])? {
        guard let first = engine.records.first, let last = engine.records.last else { return nil }
        return session.smoothed(fromClock: first.start, toClock: last.end)
    }

    /// The distance over the workout's phases after the offline smoother, metres.
    public var smoothedDistanceMetres: Double? { smoothed?.distanceMetres }

    /// The session's summary so far (the contract JSON's content); `outcome` says how it ended
    /// (by default from the engine: completed, stopped or in progress).
    public func summary(linesBad: Int, outcome: SessionOutcome? = nil) -> Summary {
        var builder = SummaryBuilder(workoutSpec: workout.spec, startUTC: startUTC, units: options.units,
                                     outcome: outcome ?? defaultOutcome)
        builder.originSeconds = options.getReady.seconds
        builder.phases = engine.records.map { record in
            SummaryBuilder.PhaseFigures(index: record.index, kind: record.planned.kind, planned: Self.planned(record.planned),
                                        startSeconds: record.start.seconds, endSeconds: record.end.seconds,
                                        activeSeconds: record.activeDuration.seconds, distanceMetres: record.distanceMetres,
                                        reason: record.reason)
        }
        builder.movingSeconds = session.movingTime.seconds
        builder.splits = session.splits.splits
        builder.smoothed = smoothed
        builder.cues = voice.cues
        builder.gpsGaps = gpsGaps
        builder.events = eventLog
        builder.heartRate = heartRate
        builder.heartRateZones = options.heartRateZones
        builder.fixes = Summary.FixCounts(epochs: session.epochs, used: session.used, rejected: session.rejected, linesBad: linesBad)
        var summary = builder.build()
        for (i, record) in engine.records.enumerated() where i < summary.phases.count && i < targets.times.count {
            if let band = record.planned.band, let times = targets.times[i] { summary.phases[i].setTarget(band, times: times) }
        }
        return summary
    }

    /// What the summary says was planned: a duration or distance, or an `until hr` condition and its `max`.
    static func planned(_ phase: PlannedPhase) -> Summary.Planned {
        guard let until = phase.until else {
            return Summary.Planned(durationSeconds: phase.target.durationSeconds, distanceMetres: phase.target.distanceMetres)
        }
        var planned = Summary.Planned(durationSeconds: until.maximum?.seconds, distanceMetres: nil)
        planned.until = until.specText
        return planned
    }

    /// How a workout the engine ran to its end is filed: `completed` when at least one phase ran
    /// to its target; one whose every phase was skipped (a burst of SIGUSR2, a skip button held)
    /// was not done, and is filed as `stopped` (its phases say `skipped`).
    public var finishedOutcome: SessionOutcome {
        engine.records.contains { $0.reason == .completed } ? .completed : .stopped
    }

    private var defaultOutcome: SessionOutcome {
        switch engine.state {
        case .completed: return finishedOutcome
        case .stopped: return .stopped
        default: return .inProgress
        }
    }

    private mutating func engineDistance(at clock: Duration) -> Double {
        session.engineDistance(at: clock.seconds, engine: engine)
    }

    private mutating func closing(at seconds: Double) -> [SessionEvent] {
        voice.closing(atSeconds: seconds, engine: engine, speed: session.paceSpeed, distance: session.engineDistanceMetres)
            .map(SessionEvent.cue)
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
            case .phaseStarted(let index, _) where workout.phases.indices.contains(index): targets.begin(workout.phases[index])
            case .phaseEnded(let record): targets.finish(activeSeconds: record.activeDuration.seconds)
            default: break
            }
            switch event {
            case .phaseStarted(0, let at): session.beginSmoothedSpan(atClock: at)
            case .workoutCompleted(let at), .workoutStopped(let at): session.endSmoothedSpan(atClock: at)
            default: break
            }
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
            events += voice.cues(for: event, engine: engine).map(SessionEvent.cue)
        }
        return events
    }
}
