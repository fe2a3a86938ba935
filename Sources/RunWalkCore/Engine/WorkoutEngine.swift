/// Drives a workout's phases from an injected clock.
///
/// The engine never counts ticks: it keeps the *end time* of the current time phase
/// (or the distance at which a distance phase ends) and compares the clock with it,
/// so however irregularly it is polled, and however often it is paused, a phase ends
/// exactly when it should. Every call takes `now`; events carry the time at which they
/// happened, which may lie before `now`.
///
/// ```swift
/// var engine = WorkoutEngine(workout: try Workout(parsing: "2x(90s run, 60s walk)"))
/// var events = engine.start(at: .zero)
/// events += engine.advance(to: .seconds(95), distanceMetres: 280)
/// ```
public struct WorkoutEngine: Sendable {
    /// Where the workout is.
    public enum State: Sendable, Equatable {
        case idle, countdown, active, paused, completed, stopped
    }

    public let workout: Workout
    /// A get-ready countdown before the first phase (zero in replay).
    public let getReady: Duration
    /// How many seconds are counted down before each boundary.
    public let countdownSeconds: Int

    public private(set) var state: State = .idle
    /// The phase running (or paused) now.
    public private(set) var phaseIndex: Int?
    /// Clock time when the current phase started.
    public private(set) var phaseStart: Duration = .zero
    /// Clock time at which the current time phase (or the get-ready countdown) ends.
    public private(set) var phaseEnd: Duration?
    public private(set) var records: [PhaseRecord] = []

    private var pausedAt: Duration?
    /// Time spent in pauses that have ended.
    private var pausedBefore: Duration = .zero
    private var stateBeforePause: State = .active
    private var pausedInPhase: Duration = .zero
    /// Pauses in the current phase, for the `until hr` check's `min`.
    var pausedInPhaseForCondition: Duration { pausedInPhase }
    /// Distance (as fed in) at which the current phase started, shifted by distance covered while paused.
    private var phaseDistanceOrigin = 0.0
    private var lastSample: (time: Duration, distance: Double)?
    private var distanceAtPause = 0.0
    private var nextCountdown = 0
    private var halfwayDone = false
    /// The latest heart rate fed in, for `until hr` phases.
    public private(set) var heartRate: HeartRateReading?

    /// Time phases at least this long get a halfway event; shorter ones are over before it would help.
    public static let halfwayMinimum: Duration = .seconds(120)

    public init(workout: Workout, getReady: Duration = .zero, countdownSeconds: Int = 3) {
        self.workout = workout
        self.getReady = getReady
        self.countdownSeconds = countdownSeconds
    }

    /// The current phase as planned.
    public var currentPhase: PlannedPhase? { phaseIndex.map { workout.phases[$0] } }

    /// Time left in the current time phase at `now` (nil for distance phases).
    public func remaining(at now: Duration) -> Duration? {
        guard let end = phaseEnd else { return nil }
        if state == .active || state == .paused, let until = currentPhase?.until, until.maximum == nil { return nil }
        if let pausedAt { return end - pausedAt }
        return max(.zero, end - now)
    }

    /// Active time in the current phase at `now`, not counting pauses.
    public func elapsedInPhase(at now: Duration) -> Duration {
        (pausedAt ?? now) - phaseStart - pausedInPhase
    }

    /// Distance covered in the current phase, given the telemetry's total.
    public func distanceInPhase(total: Double) -> Double {
        (pausedAt != nil ? distanceAtPause : total) - phaseDistanceOrigin
    }

    // MARK: Commands

    /// Starts the workout (with the get-ready countdown, if any).
    public mutating func start(at now: Duration, distanceMetres: Double = 0) -> [EngineEvent] {
        guard state == .idle else { return [] }
        lastSample = (now, distanceMetres)
        phaseDistanceOrigin = distanceMetres
        guard !workout.phases.isEmpty else {
            state = .completed
            return [.workoutCompleted(at: now)]
        }
        if getReady > .zero {
            state = .countdown
            phaseStart = now
            phaseEnd = now + getReady
            nextCountdown = min(countdownSeconds, Int(getReady.components.seconds))
            return advance(to: now, distanceMetres: distanceMetres)
        }
        state = .active
        var events: [EngineEvent] = []
        beginPhase(0, at: now, distance: distanceMetres, into: &events)
        return events
    }

    /// Moves the clock to `now` with the telemetry's total distance, emitting every event due up to `now`.
    public mutating func advance(to now: Duration, distanceMetres: Double) -> [EngineEvent] {
        advance(to: now, distanceMetres: distanceMetres, heartRate: nil)
    }

    /// Moves the clock to `now`, with the latest heart rate (bpm and its own time) when there is one:
    /// an `until hr` phase ends at the sample that reaches its threshold (or when its `min` has
    /// passed, if the heart rate got there earlier and is still there).
    public mutating func advance(to now: Duration, distanceMetres: Double, heartRate reading: HeartRateReading?) -> [EngineEvent] {
        if let reading, reading.time <= now, reading.time >= (heartRate?.time ?? reading.time) { heartRate = reading }
        var events: [EngineEvent] = []
        guard state == .active || state == .countdown else {
            if state == .paused { lastSample = (now, distanceMetres) }
            return events
        }
        let previous = lastSample ?? (now, distanceMetres)
        lastSample = (now, distanceMetres)
        // Each pass either returns or ends a phase (or the countdown), so the loop ends after
        // at most one pass per phase left.
        while state == .active || state == .countdown {
            if state == .countdown {
                guard let end = phaseEnd else { break }
                emitCountdowns(until: min(now, end), end: end, nextIndex: 0, into: &events)
                guard end <= now else { break }
                state = .active
                beginPhase(0, at: end, distance: interpolatedDistance(at: end, previous, (now, distanceMetres)), into: &events)
                continue
            }
            guard let index = phaseIndex else { break }
            switch workout.phases[index].target {
            case .duration(let length):
                guard let end = phaseEnd else { break }
                let halfway = end - length / 2
                let nextIndex = index + 1 < workout.phases.count ? index + 1 : nil
                let conditionEnd = heartRateEnd(of: index, before: end, now: now)
                // Halfway and countdown events in time order.
                var due: [(Duration, EngineEvent)] = []
                if !halfwayDone, length >= Self.halfwayMinimum, halfway <= now, halfway < end,
                   workout.phases[index].until == nil {
                    due.append((halfway, .halfway(index: index, at: halfway)))
                    halfwayDone = true
                }
                var countdownEvents: [EngineEvent] = []
                emitCountdowns(until: min(now, conditionEnd ?? end, end), end: end, nextIndex: nextIndex, into: &countdownEvents)
                due += countdownEvents.map { ($0.time, $0) }
                events += due.sorted { $0.0 < $1.0 }.map(\.1)
                if let conditionEnd {
                    let distance = interpolatedDistance(at: conditionEnd, previous, (now, distanceMetres))
                    finishPhase(at: conditionEnd, distance: distance, reason: .completed, into: &events)
                    continue
                }
                guard end <= now else { return events }
                let distance = interpolatedDistance(at: end, previous, (now, distanceMetres))
                finishPhase(at: end, distance: distance, reason: .completed, into: &events)
            case .distance(let metres):
                let target = phaseDistanceOrigin + metres
                if !halfwayDone, distanceMetres >= phaseDistanceOrigin + metres / 2 {
                    halfwayDone = true
                    let t = crossingTime(of: phaseDistanceOrigin + metres / 2, previous, (now, distanceMetres))
                    if distanceMetres < target { events.append(.halfway(index: index, at: t)) }
                }
                guard distanceMetres >= target else { return events }
                let at = crossingTime(of: target, previous, (now, distanceMetres))
                finishPhase(at: at, distance: target, reason: .completed, into: &events)
            }
        }
        return events
    }

    /// Pauses the workout; the current phase's end moves by the time spent paused.
    public mutating func pause(at now: Duration, distanceMetres: Double) -> [EngineEvent] {
        var events = advance(to: now, distanceMetres: distanceMetres)
        guard state == .active || state == .countdown else { return events }
        stateBeforePause = state
        state = .paused
        pausedAt = now
        distanceAtPause = distanceMetres
        events.append(.paused(at: now))
        return events
    }

    /// Resumes after a pause.
    public mutating func resume(at now: Duration, distanceMetres: Double) -> [EngineEvent] {
        guard state == .paused, let pausedAt else { return [] }
        let pause = now - pausedAt
        pausedBefore += pause
        phaseEnd = phaseEnd.map { $0 + pause }
        pausedInPhase += pause
        phaseDistanceOrigin += distanceMetres - distanceAtPause
        self.pausedAt = nil
        state = stateBeforePause
        lastSample = (now, distanceMetres)
        return [.resumed(at: now)] + advance(to: now, distanceMetres: distanceMetres)
    }

    /// Ends the current phase now and starts the next.
    public mutating func skip(at now: Duration, distanceMetres: Double) -> [EngineEvent] {
        var events = state == .paused ? resume(at: now, distanceMetres: distanceMetres) : advance(to: now, distanceMetres: distanceMetres)
        switch state {
        case .countdown:
            state = .active
            beginPhase(0, at: now, distance: distanceMetres, into: &events)
        case .active:
            finishPhase(at: now, distance: distanceMetres, reason: .skipped, into: &events)
            events += advance(to: now, distanceMetres: distanceMetres)
        default:
            break
        }
        return events
    }

    /// Starts the current phase again: what was done of it is recorded (`restarted`) and the
    /// same phase begins now, with its full length or distance. A paused workout resumes.
    public mutating func restart(at now: Duration, distanceMetres: Double) -> [EngineEvent] {
        var events = state == .paused ? resume(at: now, distanceMetres: distanceMetres) : advance(to: now, distanceMetres: distanceMetres)
        guard state == .active, let index = phaseIndex else { return events }
        let rec = record(activeUntil: now, end: now, distance: distanceMetres, reason: .restarted)
        records.append(rec)
        events.append(.phaseEnded(rec))
        beginPhase(index, at: now, distance: distanceMetres, into: &events)
        return events
    }

    /// Time spent paused so far, including a pause still running at `now`.
    public func pausedTotal(at now: Duration) -> Duration {
        pausedBefore + (pausedAt.map { now - $0 } ?? .zero)
    }

    /// Stops the workout; the current phase is recorded with the time actually spent in it.
    public mutating func stop(at now: Duration, distanceMetres: Double) -> [EngineEvent] {
        var events = state == .paused ? [] : advance(to: now, distanceMetres: distanceMetres)
        let inPhase = state == .active || (state == .paused && stateBeforePause == .active)
        guard state == .active || state == .countdown || state == .paused else { return events }
        if inPhase {
            let rec = record(activeUntil: pausedAt ?? now, end: now,
                             distance: pausedAt != nil ? distanceAtPause : distanceMetres, reason: .stopped)
            records.append(rec)
            events.append(.phaseEnded(rec))
        }
        state = .stopped
        phaseEnd = nil
        if let pausedAt { pausedBefore += now - pausedAt }
        pausedAt = nil
        events.append(.workoutStopped(at: now))
        return events
    }

    // MARK: Internals

    private mutating func beginPhase(_ index: Int, at time: Duration, distance: Double, into events: inout [EngineEvent]) {
        phaseIndex = index
        phaseStart = time
        pausedInPhase = .zero
        phaseDistanceOrigin = distance
        halfwayDone = false
        switch workout.phases[index].target {
        case .duration(let length):
            phaseEnd = time + length
            nextCountdown = min(countdownSeconds, Int(length.components.seconds))
            // An open-ended condition phase has no end to count down to.
            if let until = workout.phases[index].until, until.maximum == nil { nextCountdown = 0 }
        case .distance:
            phaseEnd = nil
            nextCountdown = 0
        }
        events.append(.phaseStarted(index: index, at: time))
    }

    private mutating func finishPhase(at time: Duration, distance: Double, reason: PhaseEndReason, into events: inout [EngineEvent]) {
        guard let index = phaseIndex else { return }
        let rec = record(activeUntil: time, end: time, distance: distance, reason: reason)
        records.append(rec)
        events.append(.phaseEnded(rec))
        if index + 1 < workout.phases.count {
            beginPhase(index + 1, at: time, distance: distance, into: &events)
        } else {
            state = .completed
            phaseEnd = nil
            events.append(.workoutCompleted(at: time))
        }
    }

    private func record(activeUntil: Duration, end: Duration, distance: Double, reason: PhaseEndReason) -> PhaseRecord {
        let index = phaseIndex ?? 0
        return PhaseRecord(
            index: index, planned: workout.phases[index], start: phaseStart, end: end,
            activeDuration: activeUntil - phaseStart - pausedInPhase,
            distanceMetres: max(0, distance - phaseDistanceOrigin), reason: reason)
    }

    private mutating func emitCountdowns(until limit: Duration, end: Duration, nextIndex: Int?, into events: inout [EngineEvent]) {
        while nextCountdown > 0 {
            let at = end - .seconds(nextCountdown)
            guard at <= limit else { return }
            events.append(.countdown(secondsLeft: nextCountdown, nextIndex: nextIndex, at: at))
            nextCountdown -= 1
        }
    }

    /// When the distance crossed `target`, linearly between two samples.
    private func crossingTime(of target: Double, _ a: (time: Duration, distance: Double), _ b: (time: Duration, distance: Double)) -> Duration {
        let span = b.distance - a.distance
        guard span > 0, target > a.distance else { return target <= a.distance ? a.time : b.time }
        let fraction = min(1, (target - a.distance) / span)
        return a.time + .seconds(double: (b.time - a.time).seconds * fraction)
    }

    private func interpolatedDistance(at time: Duration, _ a: (time: Duration, distance: Double), _ b: (time: Duration, distance: Double)) -> Double {
        let span = (b.time - a.time).seconds
        guard span > 0 else { return b.distance }
        let fraction = max(0, min(1, (time - a.time).seconds / span))
        return a.distance + (b.distance - a.distance) * fraction
    }
}
