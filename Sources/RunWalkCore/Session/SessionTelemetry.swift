/// One session's telemetry: every fix through the filter, counted; the distance kept only
/// while the workout runs; moving time, splits and track points; and the distance the engine
/// goes by across a gap in the fixes. Pure: the caller says what the clock reads and whether
/// the workout is running.
public struct SessionTelemetry: Sendable {
    /// The last used fix while running: its clock time and the runner's pace speed then.
    public struct UsedFix: Sendable, Equatable {
        /// Session clock seconds of the fix.
        public var seconds: Double
        /// The runner's pace speed then, m/s.
        public var speedMetresPerSecond: Double
    }

    /// The filter, its distance and the smoother's history.
    public private(set) var telemetry: Telemetry
    /// The live splits (what the runner hears).
    public private(set) var splits: SplitTracker
    /// The next split predicted between two fixes, said at its instant (`SplitForecast`).
    public private(set) var splitForecast = SplitForecast()
    /// Moving time while the workout runs.
    public private(set) var movingTime: MovingTimeCounter
    /// Epochs fed.
    public private(set) var epochs = 0
    /// Positions the telemetry used.
    public private(set) var used = 0
    /// Positions it gated out.
    public private(set) var rejected = 0
    /// Distance while the workout was active (pauses excluded), metres.
    public private(set) var activeDistanceMetres = 0.0
    /// The latest update.
    public private(set) var lastUpdate: TelemetryUpdate?
    /// The UTC time the session clock reads zero at (from the first fix), for the smoother.
    public private(set) var utcAtClockZero: UTCTime?
    /// The last used fix while running (nil after a pause: no reckoning across it).
    public private(set) var lastUsedFix: UsedFix?
    /// The most distance the engine has been given; it never goes back, metres.
    public private(set) var engineDistanceMetres = 0.0
    /// Session clock seconds at the workout's start (after the get-ready countdown): splits and
    /// track points count from there.
    public let splitOriginSeconds: Double
    private let options: SessionOptions
    private var lastTelemetryDistance: Double?
    private var lastPointSeconds: Double?
    /// The clock time the workout's first phase began, and whether the telemetry has the span.
    private var smoothedSpanStart: Duration?
    private var smoothedSpanInstalled = false
    private var smoothedSpanEnd: Duration?

    /// The telemetry of a session run with `options`.
    public init(options: SessionOptions) {
        self.options = options
        telemetry = Telemetry(settings: options.telemetry)
        splits = SplitTracker(unitMetres: options.units.splitMetres)
        movingTime = MovingTimeCounter(thresholdMetresPerSecond: options.movingSpeedThreshold)
        splitOriginSeconds = options.getReady.seconds
    }

    /// Feeds one epoch's fix observed at clock time `seconds`; `running` while the workout is
    /// active, `phaseIndex` the phase the fix belongs to. Returns the update and, for a used
    /// fix while running, the track point it makes.
    public mutating func ingest(_ fix: Fix, atClock clock: Duration, running: Bool, phaseIndex: Int?)
        -> (update: TelemetryUpdate, point: TrackPoint?) {
        epochs += 1
        if utcAtClockZero == nil {
            utcAtClockZero = fix.time.adding(.zero - clock)
            installSmoothedSpan()
        }
        var update = telemetry.ingest(fix)
        update.raw = fix
        if fix.hasPosition { splitForecast.observe(fixTakenAt: fix.time) }
        if update.accepted { used += 1 } else if fix.latitude != nil { rejected += 1 }
        let delta = max(0, update.distanceMetres - (lastTelemetryDistance ?? update.distanceMetres))
        lastTelemetryDistance = update.distanceMetres
        if running { activeDistanceMetres += delta }
        let seconds = clock.seconds
        movingTime.add(atSeconds: seconds, used: update.accepted, speedMetresPerSecond: update.speedMetresPerSecond, counting: running)
        lastUpdate = update
        guard running, update.accepted else { return (update, nil) }
        lastUsedFix = UsedFix(seconds: seconds, speedMetresPerSecond: Self.paceSpeed(update))
        guard let lat = update.latitude, let lon = update.longitude else { return (update, nil) }
        let elapsed = seconds - splitOriginSeconds
        let point = TrackPoint(
            elapsedSeconds: elapsed, time: update.time, latitude: lat, longitude: lon,
            altitudeMSL: update.altitudeMSL, distanceMetres: activeDistanceMetres,
            speedMetresPerSecond: update.speedMetresPerSecond, paceSecondsPerKm: update.paceSecondsPerKm,
            phaseIndex: phaseIndex, rawLatitude: fix.latitude, rawLongitude: fix.longitude,
            afterGap: lastPointSeconds.map { elapsed - $0 > options.gapSeconds } ?? false, hdop: fix.hdop)
        lastPointSeconds = elapsed
        var withHeartRate = point
        withHeartRate.heartRateBPM = fix.heartRateBPM
        return (update, withHeartRate)
    }

    /// The splits completed by the distance so far at clock time `seconds` (call while running).
    public mutating func completedSplits(atSeconds seconds: Double) -> [Split] {
        splits.add(elapsedSeconds: seconds - splitOriginSeconds, distanceMetres: activeDistanceMetres)
    }

    /// After the used fix that arrived at clock time `seconds` (call while running, once its
    /// splits are taken): predicts the next split when it falls before the next fix is due.
    public mutating func forecastSplit(atSeconds seconds: Double) {
        guard options.predictsSplitCrossings, let update = lastUpdate, update.accepted else {
            splitForecast.cancel()
            return
        }
        splitForecast.predict(atSeconds: seconds, distanceMetres: activeDistanceMetres, nextSplitMetres: splits.nextSplitMetres,
                              speed: update.speedMetresPerSecond ?? 0, stationary: update.stationary,
                              minimumSpeed: options.movingSpeedThreshold)
    }

    /// The predicted split, once the clock has come to its instant (`seconds`): completed at
    /// that instant (its time and figures are the prediction's).
    public mutating func dueSplit(atSeconds seconds: Double) -> Split? {
        guard let due = splitForecast.dueSeconds, due <= seconds else { return nil }
        splitForecast.cancel()
        return splits.complete(atElapsedSeconds: due - splitOriginSeconds)
    }

    /// Drops a predicted split not yet due (pause, skip, stop, the GPS lost…).
    public mutating func cancelSplitForecast() {
        splitForecast.cancel()
    }

    /// A pause: no reckoning across it; the next fix starts it afresh.
    public mutating func forgetLastUsedFix() {
        lastUsedFix = nil
    }

    /// The runner's current (pace) speed, metres per second; 0 while standing.
    public var paceSpeed: Double { Self.paceSpeed(lastUpdate) }

    /// The runner's current (pace) speed in an update, metres per second; 0 while standing.
    static func paceSpeed(_ update: TelemetryUpdate?) -> Double {
        update?.paceSecondsPerKm.map { 1000 / $0 } ?? 0
    }

    /// The distance the engine goes by at `seconds`: the fixes' distance, and while fixes are
    /// missing (a gap, live) that plus the distance reckoned since the last one, so phases that
    /// end inside the gap get their share and a distance phase can end in it. When fixes return,
    /// the telemetry's bridge over the gap takes over; the engine's distance never goes back
    /// (a reckoning that was too long is absorbed by the next metres).
    public mutating func engineDistance(at seconds: Double, engine: WorkoutEngine) -> Double {
        var distance = activeDistanceMetres
        if engine.state == .active, let fix = lastUsedFix, seconds - fix.seconds > options.telemetry.gapSeconds {
            distance += Self.reckonedDistance(from: fix, to: seconds, engine: engine)
        }
        engineDistanceMetres = max(engineDistanceMetres, distance)
        return engineDistanceMetres
    }

    /// Distance since `fix` by the workout's plan: the phase the runner was in at the pace they
    /// had; a later phase at the runner's average over earlier phases of its kind (else that pace too).
    static func reckonedDistance(from fix: UsedFix, to seconds: Double, engine: WorkoutEngine) -> Double {
        var spans = engine.records.map { (kind: $0.planned.kind, start: $0.start.seconds, end: $0.end.seconds) }
        if let current = engine.currentPhase { spans.append((current.kind, engine.phaseStart.seconds, seconds)) }
        var metres = 0.0
        for span in spans where span.end > fix.seconds {
            let overlap = min(span.end, seconds) - max(span.start, fix.seconds)
            guard overlap > 0 else { continue }
            let startedBeforeGap = span.start <= fix.seconds
            let speed = startedBeforeGap ? fix.speedMetresPerSecond
                : typicalSpeed(of: span.kind, engine: engine) ?? fix.speedMetresPerSecond
            metres += overlap * speed
        }
        return metres
    }

    /// Completed phases of a kind count as the runner's typical speed only with this much time
    /// in them, seconds: less is one ramp-up, not a pace to reckon a gap with.
    static let typicalSpeedMinimumSeconds = 30.0

    /// The runner's average speed over completed phases of `kind`, m/s.
    static func typicalSpeed(of kind: PhaseKind, engine: WorkoutEngine) -> Double? {
        let same = engine.records.filter { $0.planned.kind == kind && $0.reason == .completed }
        let seconds = same.reduce(0) { $0 + $1.activeDuration.seconds }
        guard seconds >= typicalSpeedMinimumSeconds else { return nil }
        return same.reduce(0) { $0 + $1.distanceMetres } / seconds
    }

    /// The workout's first phase began at clock time `start`: from then on the smoother keeps
    /// only what the span from there needs (`Telemetry.beginSmoothedSpan`), not every fix. The
    /// first call counts (a restarted first phase does not move the workout's start).
    public mutating func beginSmoothedSpan(atClock start: Duration) {
        guard smoothedSpanStart == nil else { return }
        smoothedSpanStart = start
        installSmoothedSpan()
    }

    /// The workout ended at clock time `end`: fixes after it no longer count in the span.
    public mutating func endSmoothedSpan(atClock end: Duration) {
        guard smoothedSpanEnd == nil else { return }
        smoothedSpanEnd = end
        if smoothedSpanInstalled, let zero = utcAtClockZero { telemetry.endSmoothedSpan(at: zero.adding(end)) }
    }

    /// Hands the span to the telemetry once the clock's UTC is known (from the first fix).
    private mutating func installSmoothedSpan() {
        guard let start = smoothedSpanStart, !smoothedSpanInstalled, let zero = utcAtClockZero else { return }
        smoothedSpanInstalled = true
        telemetry.beginSmoothedSpan(from: zero.adding(start), elapsedOffset: start.seconds - splitOriginSeconds,
                                    splitUnitMetres: splits.unitMetres)
        if let end = smoothedSpanEnd { telemetry.endSmoothedSpan(at: zero.adding(end)) }
    }

    /// The offline smoother's view of the clock span `start`…`end`: the distance over it
    /// (metres) and the splits from it. Nil without smoother history (or for a start other than
    /// the span's, once one was begun).
    public func smoothed(fromClock start: Duration, toClock end: Duration) -> (distanceMetres: Double, splits: [Split])? {
        guard let zero = utcAtClockZero else { return nil }
        return telemetry.smoothed(from: zero.adding(start), to: zero.adding(end), elapsedOffset: start.seconds - splitOriginSeconds,
                                  splitUnitMetres: splits.unitMetres)
    }
}
