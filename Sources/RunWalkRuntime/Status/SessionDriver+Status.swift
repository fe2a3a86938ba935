import RunWalkCore

extension SessionDriver {
    /// The status a front end shows at loop time `now`.
    public func status(at now: Duration) -> SessionStatus {
        let runner = self.runner
        let engine = runner.engine
        let options = runner.options
        var status = SessionStatus(workout: runner.workout.spec, stage: stage, phaseCount: runner.workout.phases.count,
                                   units: options.units)
        status.gps = gpsStatus(at: now)
        guard started else { return status }
        let clock = sessionClock(at: now)
        if let bpm = runner.currentHeartRate(at: clock), !runner.heartRateStrapLost {
            status.heartRateBPM = bpm
            status.heartRateZone = options.heartRateZones.zone(of: bpm)
        }
        let phases = runner.workout.phases
        status.paused = engine.state == .paused
        status.autoPaused = status.paused && autoPaused
        let distance = runner.activeDistanceMetres
        status.distanceMetres = distance
        var workoutElapsed = engine.records.reduce(0) { $0 + $1.activeDuration.seconds }
        if engine.state == .countdown {
            status.startCountdownSeconds = engine.remaining(at: clock).map { Int($0.seconds.rounded(.up)) }
            status.next = phases.indices.first.map { Self.phase($0, phases[$0]) }
        }
        if let index = engine.phaseIndex, engine.state == .active || engine.state == .paused {
            let planned = phases[index]
            status.phase = Self.phase(index, planned)
            status.next = index + 1 < phases.count ? Self.phase(index + 1, phases[index + 1]) : nil
            let elapsed = engine.elapsedInPhase(at: clock).seconds
            status.phaseElapsedSeconds = elapsed
            workoutElapsed += elapsed
            status.target = planned.band.map(PhaseTargetBand.init)
            status.targetState = planned.band != nil ? runner.targets.state : nil
            switch planned.target {
            case .duration where planned.until != nil && planned.until?.maximum == nil:
                // Ends on the heart rate: no time left to show (issue 33).
                break
            case .duration(let length):
                let left = engine.remaining(at: clock)?.seconds ?? 0
                status.phaseRemainingSeconds = left
                status.phaseProgress = Self.fraction(length.seconds - left, of: length.seconds)
            case .distance(let metres):
                let done = engine.distanceInPhase(total: distance)
                status.phaseRemainingMetres = max(0, metres - done)
                status.phaseProgress = Self.fraction(done, of: metres)
            }
        }
        status.workoutElapsedSeconds = workoutElapsed
        if engine.state != .countdown, let first = engine.records.first?.start ?? (engine.phaseIndex != nil ? engine.phaseStart : nil) {
            status.elapsedSeconds = max(0, (clock - first).seconds)
        }
        let remaining = workoutRemaining(status: status)
        status.workoutRemainingSeconds = remaining
        if let remaining {
            status.workoutProgress = Self.fraction(workoutElapsed, of: workoutElapsed + remaining)
        } else {
            let done = Double(engine.records.filter { $0.reason != .restarted }.count)
            status.workoutProgress = Self.fraction(done + (engine.phaseIndex != nil ? status.phaseProgress : 0), of: Double(phases.count))
        }
        if engine.state == .completed { status.workoutProgress = 1 }
        // No stale pace: none while the GPS is lost.
        status.currentPaceSecondsPerKm = gpsState == .fix ? runner.lastUpdate?.paceSecondsPerKm : nil
        status.averagePaceSecondsPerKm = distance >= 10 ? workoutElapsed / distance * 1000 : nil
        return status
    }

    /// Where the session is.
    public var stage: SessionStatus.Stage {
        guard started else { return .waitingForFix }
        switch runner.engine.state {
        case .idle: return .waitingForFix
        case .countdown: return .startCountdown
        case .active: return .running
        case .paused: return .paused
        case .completed: return .completed
        case .stopped: return .stopped
        }
    }

    private func gpsStatus(at now: Duration) -> SessionStatus.GPS {
        var gps = SessionStatus.GPS(state: gpsState, problem: sourceProblem)
        if let fix = lastFix {
            gps.satellites = fix.satellitesUsed ?? fix.satellitesVisible
            if gpsState == .fix {
                if let e = fix.latitudeErrorMetres, let n = fix.longitudeErrorMetres {
                    gps.accuracyMetres = (e * e + n * n).squareRoot()
                } else if let hdop = fix.hdop {
                    gps.accuracyMetres = hdop * runner.options.telemetry.userRangeErrorMetres
                }
            }
        }
        if gpsState != .fix { gps.lostForSeconds = max(0, (loopTime(now) - gpsLostSinceLoop).seconds) }
        return gps
    }

    private func loopTime(_ now: Duration) -> Duration {
        if case .track = settings.clock { return loopNow }
        return max(loopNow, now)
    }

    /// Time left in the workout: exact while only time phases are left; a distance phase is
    /// estimated from the current pace (nil when standing).
    private func workoutRemaining(status: SessionStatus) -> Double? {
        let engine = runner.engine
        let phases = runner.workout.phases
        let speed = runner.lastUpdate?.paceSecondsPerKm.map { 1000 / $0 }
        func time(_ phase: PlannedPhase, metresLeft: Double? = nil) -> Double? {
            if phase.until != nil { return nil }
            switch phase.target {
            case .duration(let d): return d.seconds
            case .distance(let m):
                guard let speed, speed > 0 else { return nil }
                return (metresLeft ?? m) / speed
            }
        }
        switch engine.state {
        case .completed, .stopped: return 0
        case .idle: return nil
        case .countdown:
            return phases.reduce(0.0 as Double?) { sum, p in sum.flatMap { s in time(p).map { s + $0 } } }
        case .active, .paused:
            guard let index = engine.phaseIndex else { return nil }
            var total: Double
            if let left = status.phaseRemainingSeconds {
                total = left
            } else if let left = time(phases[index], metresLeft: status.phaseRemainingMetres) {
                total = left
            } else {
                return nil
            }
            for phase in phases[(index + 1)...] {
                guard let t = time(phase) else { return nil }
                total += t
            }
            return total
        }
    }

    private static func phase(_ index: Int, _ planned: PlannedPhase) -> SessionStatus.Phase {
        SessionStatus.Phase(index: index, kind: planned.kind,
                            plannedSeconds: planned.until != nil ? planned.until?.maximum?.seconds : planned.target.durationSeconds,
                            plannedMetres: planned.target.distanceMetres)
    }

    private static func fraction(_ part: Double, of whole: Double) -> Double {
        guard whole > 0 else { return 0 }
        return min(1, max(0, part / whole))
    }
}
