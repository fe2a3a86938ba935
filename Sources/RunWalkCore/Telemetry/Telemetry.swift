#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the telemetry made of one fix.
public struct TelemetryUpdate: Sendable, Equatable {
    public var time: UTCTime
    /// Whether the fix's position was used (it had a position and passed the gate).
    public var accepted: Bool
    /// Total distance so far, metres.
    public var distanceMetres: Double
    /// Filtered speed, metres per second (zero while standing).
    public var speedMetresPerSecond: Double?
    /// Current pace (`PaceFilter`), seconds per kilometre; nil while standing.
    public var paceSecondsPerKm: Double?
    /// The estimated position.
    public var latitude: Double?
    public var longitude: Double?
    public var altitudeMSL: Double?
    /// Whether the receiver is taken to stand still.
    public var stationary: Bool = false
    /// The receiver's fix this update was made from (the recorder stores raw beside filtered values).
    public var raw: Fix?
}

/// Turns fixes into distance and pace.
///
/// A constant-velocity Kalman filter on a local east/north plane fuses positions
/// (noise from GST or HDOP × UERE, outliers gated by chi-square) with the Doppler speed
/// and course when the receiver gives them. Distance is the filtered speed integrated
/// over time, causally (without Doppler, the filtered position's progress along the way,
/// `progress`); nothing accrues while standing, and a gap is bridged by the
/// speeds on either side, bounded by the straight line between its ends.
public struct Telemetry: Sendable {
    public let settings: TelemetrySettings
    public private(set) var distanceMetres = 0.0
    public private(set) var pace: PaceFilter
    /// The gap bridge's speed before a gap: an EMA with the pace's time constant, longer than
    /// the adaptive pace's at 10 Hz (a gap wants the mean speed, not the latest).
    private var bridgeSpeed: PaceEMA
    /// Whether the receiver is taken to stand still.
    public private(set) var stationary = true
    /// The filter (nil before the first fix with a position).
    public private(set) var filter: ConstantVelocityFilter?
    /// Filter history for the offline smoother (its recent steps; older ones are settled).
    public private(set) var history: SmootherHistory
    /// A span asked for before the first fix with a position set the time origin.
    private var pendingSpan: (start: UTCTime, elapsedOffset: Double, splitUnitMetres: Double)?
    private var plane: LocalPlane?
    private var origin: UTCTime?
    private var lastTime: Double?
    /// Speed used for the distance at the last fix (zero when standing), and the raw Doppler.
    private var lastSpeed = 0.0
    private var lastDoppler: Double?
    private var rejectedInARow: [(east: Double, north: Double)] = []
    private var openGap: GapBridge?
    private var candidate: (time: Double, east: Double, north: Double, variance: (Double, Double), fix: Fix, doppler: Double?)?
    private var owedMetres = 0.0
    private var relocked = false  // whether the last position relocked the filter (for the smoother's history)
    private var standingWindow: StandingWindow  // standing on the positions, without Doppler
    private var dopplerGuard: DopplerSpikeGuard  // one-fix Doppler spikes (urban canyon)
    var stepGuard: PositionStepGuard  // steps of the position bias, without Doppler (urban canyon)

    /// Velocity variance of a filter started without a Doppler velocity, (m/s)²: a 5 m/s
    /// sigma covers standing to sprinting, so the first positions set the speed.
    static let unknownVelocityVariance = 25.0
    /// Relative sigma of a start velocity from Doppler speed and course (10 %, squared): the
    /// course of one reading is rougher than its speed.
    static let startVelocityRelativeVariance = 0.01
    /// Standard deviations of the two positions' noise a candidate start may be off by and
    /// still agree with the next fix (three: a true pair almost never fails it).
    static let startAgreementSigmas = 3.0
    /// How far gated fixes may move per fix interval, in multiples of the filter's speed, and
    /// still agree with each other (the receiver jumped, the runner did not speed up fivefold).
    static let relockSpeedFactor = 5.0
    /// Standard deviations of the fixes' noise allowed on top when gated fixes are compared.
    static let relockAgreementSigmas = 4.0
    /// Metres allowed on top when gated fixes are compared: a multipath jump moves a few metres
    /// more than the noise says, and must still count as the receiver's, not a runner's, motion.
    static let relockSlackMetres = 20.0
    /// Below this filtered speed (m/s) a Doppler course cannot be linearised about the
    /// velocity (its direction is noise): the Doppler vector is applied as it is instead.
    static let courseLinearisationMinimumSpeed = 0.3

    public init(settings: TelemetrySettings = TelemetrySettings()) {
        self.init(settings: settings, smootherBlockSteps: SmootherHistory.defaultBlockSteps,
                  smootherLagSteps: SmootherHistory.defaultLagSteps, smootherLagSeconds: SmootherHistory.defaultLagSeconds)
    }

    /// A telemetry whose smoother settles `smootherBlockSteps` at a time, `smootherLagSteps` or
    /// `smootherLagSeconds` behind the newest fix (tests compare windows with a whole-run pass,
    /// which has neither).
    init(settings: TelemetrySettings, smootherBlockSteps: Int, smootherLagSteps: Int, smootherLagSeconds: Double = .infinity) {
        self.settings = settings
        history = SmootherHistory(settings: settings, blockSteps: smootherBlockSteps, lagSteps: smootherLagSteps,
                                  lagSeconds: smootherLagSeconds)
        pace = PaceFilter(timeConstantSeconds: settings.paceTimeConstantSeconds,
                          initialSpeedSigma: settings.dopplerSpeedSigma)
        pace.referenceNoiseFraction = settings.paceReferenceNoiseFraction
        bridgeSpeed = PaceEMA(timeConstantSeconds: settings.paceTimeConstantSeconds)
        standingWindow = StandingWindow(windowSeconds: settings.standingWindowSecondsWithoutDoppler,
                                        lookbackSeconds: settings.standingLookbackSecondsWithoutDoppler)
        dopplerGuard = DopplerSpikeGuard(leapMetresPerSecond: settings.dopplerLeapMetresPerSecond, maximumIntervalSeconds: settings.gapSeconds)
        stepGuard = PositionStepGuard(thresholdMetres: settings.positionStepMetresWithoutDoppler,
                                      maximumMetres: settings.positionStepMaximumMetresWithoutDoppler)
    }

    /// Feeds one epoch's fix.
    public mutating func ingest(_ fix: Fix) -> TelemetryUpdate {
        var update = TelemetryUpdate(time: fix.time, accepted: false, distanceMetres: distanceMetres,
                                     stationary: stationary)
        guard fix.hasPosition, let lat = fix.latitude, let lon = fix.longitude else { return update }
        let plane = self.plane ?? LocalPlane(originLatitude: lat, originLongitude: lon)
        self.plane = plane
        let origin = self.origin ?? fix.time
        self.origin = origin
        if let span = pendingSpan {
            pendingSpan = nil
            beginSmoothedSpan(from: span.start, elapsedOffset: span.elapsedOffset, splitUnitMetres: span.splitUnitMetres)
        }
        let t = Double(fix.time.milliseconds - origin.milliseconds) / 1000
        let p = plane.project(latitude: lat, longitude: lon)
        let variance = positionVariance(fix)
        var doppler = fix.speedMetresPerSecond
        if let d = doppler, !(d.isFinite && d >= 0 && d <= settings.maximumSpeed) { doppler = nil }

        guard var filter, let lastTime else {
            // Start on the earlier of two fixes that agree, so a wild first fix cannot seed the filter.
            if let c = candidate, t > c.time, agree(c, east: p.east, north: p.north, time: t, variance: variance) {
                candidate = nil
                start(at: c.time, east: c.east, north: c.north, variance: c.variance, fix: c.fix, doppler: c.doppler)
                return ingest(fix)
            }
            candidate = (t, p.east, p.north, variance, fix, doppler)
            update.accepted = true
            update.latitude = lat
            update.longitude = lon
            update.altitudeMSL = fix.altitudeMSL
            return update
        }
        let dt = t - lastTime
        guard dt > 0 else { return update }
        if fix.startsSegment {
            // The track says the stretch before this fix was not recorded (a pause, a new
            // segment or track): restart the filter here and add nothing for the gap.
            openGap = nil
            rejectedInARow.removeAll()
            start(at: t, east: p.east, north: p.north, variance: variance, fix: fix, doppler: doppler, startsSegment: true)
            update.accepted = true
            return fill(update, plane: plane, fix: fix)
        }
        var before = filter
        doppler = dopplerGuard.screen(doppler, reference: filter.speed, moving: !stationary, intervalSeconds: dt, owed: &owedMetres)
        let start = (east: filter.east, north: filter.north, variance: filter.covariance[0, 0])
        filter.predict(by: dt, accelerationSpectralDensity: settings.accelerationSpectralDensity)
        let held = screenStep(&filter, from: &before, east: p.east, north: p.north, time: t, dt: dt, doppler: doppler)
        if held { relocked = false }
        update.accepted = !held && applyPosition(&filter, east: p.east, north: p.north, variance: variance, dt: dt)
        if update.accepted { stepGuard.record(time: t, east: p.east, north: p.north) }
        let speed = applyVelocity(&filter, doppler: doppler, course: fix.courseDegrees, time: t)
        self.filter = filter
        self.lastTime = t
        let startSpeed = stationary ? 0 : speed
        if doppler == nil, !stationary, !relocked, dt <= settings.gapSeconds {
            // The filtered position's progress replaces the integrated speed's (`progress`).
            owedMetres += settings.positionProgressWithoutDoppler * (Self.progress(from: before, to: filter) - dt * (lastSpeed + startSpeed) / 2)
        }
        let increment = distanceIncrement(over: dt, from: start, to: filter, speed: startSpeed, doppler: doppler != nil)
        distanceMetres += increment
        lastSpeed = startSpeed
        if doppler != nil || relocked || dt > settings.gapSeconds { standingWindow.reset() }
        if doppler == nil {
            standingWindow.record(.init(time: t, east: filter.east, north: filter.north, distanceMetres: distanceMetres))
        }
        if settings.keepsSmootherHistory {
            let observation = FixObservation(east: p.east, north: p.north, varianceEast: variance.0, varianceNorth: variance.1,
                                             positionUsed: update.accepted, relocked: relocked, dopplerSpeed: doppler,
                                             courseRadians: fix.courseDegrees.map { $0 * .pi / 180 })
            // Held standing by the window alone (at speed), the smoother is left to judge.
            let standing = stationary && (doppler != nil || speed <= settings.movingSpeedWithoutDoppler)
            history.append(time: t, filtered: filter, stationary: standing, observation: observation,
                           keepingObservation: settings.smootherModelsPositionBias)
        }
        pace.add(speedMetresPerSecond: startSpeed, at: .milliseconds(fix.time.milliseconds), measured: doppler != nil)
        bridgeSpeed.add(speedMetresPerSecond: startSpeed, at: .milliseconds(fix.time.milliseconds))
        update.distanceMetres = distanceMetres
        update.stationary = stationary
        return fill(update, plane: plane, fix: fix)
    }

    /// The distance covered since the last fix: the trapezoid of the speeds, a bridge over a
    /// gap, and any correction of an earlier gap.
    private mutating func distanceIncrement(over dt: Double, from start: (east: Double, north: Double, variance: Double),
                                            to filter: ConstantVelocityFilter, speed startSpeed: Double,
                                            doppler: Bool) -> Double {
        var increment = dt * (lastSpeed + startSpeed) / 2
        if dt > settings.gapSeconds {
            // With Doppler, the averaged speed before the gap is a better estimate than one
            // noisy sample, and the speed after it is refined later. Without Doppler the filter's
            // speed after the gap already carries the gap's displacement: take it as it is.
            let before = lastSpeed == 0 || !doppler ? lastSpeed : (bridgeSpeed.speedMetresPerSecond ?? lastSpeed)
            let chord = ((filter.east - start.east) * (filter.east - start.east)
                + (filter.north - start.north) * (filter.north - start.north)).squareRoot()
            let gap = GapBridge(durationSeconds: dt, speedBefore: before, speedAfter: startSpeed, chordMetres: chord,
                                slackMetres: (start.variance + filter.covariance[0, 0]).squareRoot())
            increment = gap.estimateMetres
            openGap = gap.refinable && !stationary && doppler ? gap : nil
        } else if var gap = openGap {
            if stationary {
                openGap = nil
            } else if let correction = gap.add(speed: (lastSpeed + startSpeed) / 2, overSeconds: dt) {
                owedMetres += correction
                openGap = nil
            } else {
                openGap = gap
            }
        }
        // Corrections never make the distance go backwards: a negative one is taken from what follows.
        if owedMetres > 0 {
            increment += owedMetres
            owedMetres = 0
        } else if owedMetres < 0 {
            let taken = min(increment, -owedMetres)
            increment -= taken
            owedMetres += taken
        }
        return increment
    }

    /// The smoothed cumulative distance at every used fix: (seconds since the first fix, metres).
    /// Empty once a span was begun (`beginSmoothedSpan`): a session keeps only its span's figures.
    public func smoothedDistanceSeries() -> [(seconds: Double, metres: Double)] {
        guard case .series(let points) = history.settledSink() else { return [] }
        return points.map { ($0.seconds, $0.metres) }
    }

    /// The distance between two instants after an offline Rauch–Tung–Striebel pass over the
    /// whole history, metres; nil without history (or once a span was begun).
    public func smoothedDistanceMetres(from start: UTCTime, to end: UTCTime) -> Double? {
        smoothed(from: start, to: end)?.distanceMetres
    }

    /// The smoothed distance between two instants and its splits every `splitUnitMetres`, on a
    /// clock that reads `elapsedOffset` at `start`; nil without history. Once a span was begun
    /// only that span's start is known (its figures need nothing per step).
    public func smoothed(from start: UTCTime, to end: UTCTime, elapsedOffset: Double = 0, splitUnitMetres: Double = 1000)
        -> (distanceMetres: Double, splits: [Split])? {
        guard let origin, !history.isEmpty, end.milliseconds > start.milliseconds else { return nil }
        let a = Double(start.milliseconds - origin.milliseconds) / 1000
        let b = Double(end.milliseconds - origin.milliseconds) / 1000
        switch history.sink {
        case .span(let span):
            guard span.start == a, span.elapsedOffset == elapsedOffset, span.end == nil || span.end == b else { return nil }
            return history.spanFigures(endingAt: b)
        case .series:
            guard case .series(let points) = history.settledSink() else { return nil }
            return SmoothedSpan(start: a, elapsedOffset: elapsedOffset, splitUnitMetres: splitUnitMetres)
                .finished(at: b, rest: points)
        }
    }

    /// From now on keeps only what the smoothed figures of the span from `start` need (its
    /// distance so far and splits, on a clock reading `elapsedOffset` there): a live run's memory
    /// then no longer grows with its length. Ask for it once, when the workout starts.
    public mutating func beginSmoothedSpan(from start: UTCTime, elapsedOffset: Double, splitUnitMetres: Double) {
        guard settings.keepsSmootherHistory else { return }
        guard let origin else {
            pendingSpan = (start, elapsedOffset, splitUnitMetres)
            return
        }
        let a = Double(start.milliseconds - origin.milliseconds) / 1000
        history.beginSpan(SmoothedSpan(start: a, elapsedOffset: elapsedOffset, splitUnitMetres: splitUnitMetres))
    }

    /// The span ends at `end` (the workout's end): fixes after it no longer count in its figures.
    public mutating func endSmoothedSpan(at end: UTCTime) {
        guard let origin else { return }
        history.endSpan(at: Double(end.milliseconds - origin.milliseconds) / 1000)
    }

    private mutating func start(at t: Double, east: Double, north: Double, variance: (Double, Double), fix: Fix, doppler: Double?,
                                startsSegment: Bool = false) {
        var ve = 0.0, vn = 0.0, velocityVariance = Self.unknownVelocityVariance
        if let d = doppler {
            stationary = d < settings.stationarySpeed
            if !stationary, let course = fix.courseDegrees {
                ve = d * sin(course * .pi / 180)
                vn = d * cos(course * .pi / 180)
                velocityVariance = settings.dopplerSpeedSigma * settings.dopplerSpeedSigma + d * d * Self.startVelocityRelativeVariance
            }
        }
        let filter = ConstantVelocityFilter(east: east, north: north, positionVariance: max(variance.0, variance.1),
                                            velocityEast: ve, velocityNorth: vn, velocityVariance: velocityVariance)
        self.filter = filter
        lastTime = t
        lastDoppler = doppler
        lastSpeed = stationary ? 0 : filter.speed
        standingWindow.reset()
        stepGuard.record(time: t, east: east, north: north)
        if settings.keepsSmootherHistory {
            let observation = FixObservation(east: east, north: north, varianceEast: variance.0, varianceNorth: variance.1,
                                             positionUsed: true, relocked: startsSegment, dopplerSpeed: doppler,
                                             courseRadians: fix.courseDegrees.map { $0 * .pi / 180 }, startsSegment: startsSegment)
            history.append(time: t, filtered: filter, stationary: stationary, observation: observation,
                           keepingObservation: settings.smootherModelsPositionBias)
        }
    }

    /// Gates and applies the position; returns whether it was used.
    private mutating func applyPosition(_ filter: inout ConstantVelocityFilter, east: Double, north: Double,
                                        variance: (Double, Double), dt: Double) -> Bool {
        let d2 = filter.positionMahalanobisSquared(east: east, north: north, varianceEast: variance.0, varianceNorth: variance.1)
        relocked = false
        if d2 > settings.positionGateChiSquare {
            rejectedInARow.append((east, north))
            guard rejectedInARow.count >= settings.relockAfterRejections, rejectedAgree(variance: variance) else { return false }
            // The gated fixes agree with each other: the filter lost track, not the receiver.
            filter.resetPosition(east: east, north: north, variance: max(variance.0, variance.1))
            rejectedInARow.removeAll()
            relocked = true
            return true
        }
        rejectedInARow.removeAll()
        let inflation = max(1, settings.positionCorrelationSeconds / dt)
        filter.updatePosition(east: east, north: north, varianceEast: variance.0 * inflation, varianceNorth: variance.1 * inflation)
        return true
    }

    private func rejectedAgree(variance: (Double, Double)) -> Bool {
        guard let last = rejectedInARow.last, let first = rejectedInARow.first, let filter else { return false }
        // Consecutive gated fixes agree when they move together at about the filter's speed.
        let span = Double(rejectedInARow.count - 1)
        let moved = ((last.east - first.east) * (last.east - first.east) + (last.north - first.north) * (last.north - first.north)).squareRoot()
        let sigma = (variance.0 + variance.1).squareRoot()
        return span > 0 && moved <= filter.speed * span * Self.relockSpeedFactor + Self.relockAgreementSigmas * sigma + Self.relockSlackMetres
    }

    /// Applies the Doppler velocity or the stationary constraint; returns the filtered speed.
    private mutating func applyVelocity(_ filter: inout ConstantVelocityFilter, doppler: Double?, course: Double?, time: Double) -> Double {
        defer { lastDoppler = doppler }
        guard let speed = doppler else { return standingWithoutDoppler(filter, time: time) }
        if stationary, speed > settings.movingSpeed { stationary = false }
        if !stationary, speed < settings.stationarySpeed { stationary = true }
        let speedVariance = settings.dopplerSpeedSigma * settings.dopplerSpeedSigma * (dopplerGuard.holding ? 1e6 : 1)
        if stationary {
            filter.updateVelocity(east: 0, north: 0, variance: speedVariance)
            return 0
        }
        if let course, course.isFinite {
            let sigma = atan2(settings.dopplerSpeedSigma, speed) + settings.courseSigmaFloorDegrees * .pi / 180
            if filter.speed < Self.courseLinearisationMinimumSpeed {
                // Too slow to linearise about: take the Doppler velocity vector as it is.
                let r = course * .pi / 180
                filter.updateVelocity(east: speed * sin(r), north: speed * cos(r), variance: speedVariance + speed * speed * sigma * sigma)
            } else {
                filter.updateCourse(course * .pi / 180, variance: sigma * sigma)
            }
        }
        filter.updateSpeed(speed, variance: speedVariance)
        return filter.speed
    }

    /// Without Doppler, standing is the filtered speed's or the positions' (`StandingWindow`).
    private mutating func standingWithoutDoppler(_ filter: ConstantVelocityFilter, time: Double) -> Double {
        let s = filter.speed
        let span = standingWindow.span(time: time, east: filter.east, north: filter.north, distanceMetres: distanceMetres)
        if stationary {
            guard s > settings.movingSpeedWithoutDoppler, (span?.chord ?? .infinity) > settings.movingRadiusMetresWithoutDoppler
            else { return s }
            stationary = false
        } else if s < settings.stationarySpeedWithoutDoppler {
            stationary = true
        } else if s < settings.standingWindowMaximumSpeed, let span, span.chord < settings.standingRadiusMetresWithoutDoppler {
            stationary = true
            let back = standingWindow.span(time: time, east: filter.east, north: filter.north, distanceMetres: distanceMetres,
                                           seconds: standingWindow.lookbackSeconds) ?? span
            owedMetres -= max(0, back.path - back.chord)
        }
        return s
    }

    private func fill(_ update: TelemetryUpdate, plane: LocalPlane, fix: Fix) -> TelemetryUpdate {
        var update = update
        guard let filter else { return update }
        let position = plane.unproject(east: filter.east, north: filter.north)
        update.latitude = position.latitude
        update.longitude = position.longitude
        update.altitudeMSL = fix.altitudeMSL
        update.speedMetresPerSecond = stationary ? 0 : filter.speed
        update.paceSecondsPerKm = pace.paceSecondsPerKm
        update.stationary = stationary
        return update
    }
}
