/// Decides what to say and when, from engine events, splits and GPS state.
///
/// A struct with mutating handlers and no clock: every call says when it happened.
/// Utterance lengths and key-word onsets come from the injected `SpeechTiming`, so a
/// transition starts early by its key word's onset and "Run" falls on the boundary;
/// countdown numbers fall on their seconds. One `SpeechQueue` keeps cues apart.
public struct CuePlanner: Sendable {
    /// The boundary the engine is heading for: a time phase's end, and the phase after it.
    public struct Boundary: Sendable, Equatable {
        public var seconds: Double
        public var nextIndex: Int?
        public init(seconds: Double, nextIndex: Int?) {
            self.seconds = seconds
            self.nextIndex = nextIndex
        }
    }

    public let workout: Workout
    public let language: Language
    public let units: Units
    public let enabled: Set<CueKind>
    public let timing: SpeechTiming
    /// Seconds counted down before a boundary (the engine's setting).
    public let countdownSeconds: Int
    public private(set) var queue = SpeechQueue()
    private let phrases: any PhraseTable
    /// The phase whose transition cue is already planned (ahead of its boundary).
    private var announcedPhase: Int?
    private var runsFinished = 0
    /// The closing cue is placed: nothing but the runner's own pause and resume follows it.
    public private(set) var closed = false
    /// The closing cue's spoken length when last measured, seconds.
    private var closingLengthSeconds: Double?
    /// The phase a resume returns to and what is left of it (set by the session before a resume).
    public var resumeContext: (kind: PhaseKind, remaining: PhaseTarget?)?
    /// Said once, with the first engine event, ahead of its own cues (a plan day's name).
    private var pendingIntroduction: String?
    /// When the last transition or countdown number placed ends, seconds (coaching keeps clear of it).
    public private(set) var lastBeatEndSeconds = -Double.infinity
    /// Coaching is said no nearer than this to a transition or countdown, seconds.
    public static let targetQuietSeconds = 3.0

    public init(workout: Workout, language: Language = .en, units: Units = .metric,
                enabled: Set<CueKind> = CueKind.defaultEnabled, timing: SpeechTiming = .estimated,
                countdownSeconds: Int = 3, introduction: String? = nil) {
        self.workout = workout
        self.language = language
        self.units = units
        self.enabled = enabled
        self.timing = timing
        self.countdownSeconds = countdownSeconds
        pendingIntroduction = introduction
        phrases = language.phrases
    }

    /// Cues for one engine event; `upcoming` is the next time boundary after it, if known.
    public mutating func cues(for event: EngineEvent, upcoming: Boundary?) -> [Cue] {
        let released = reserve(upcoming)
        return released + introduction(at: event.time.seconds) + cues(for: event)
    }

    /// The introduction, at the first event: it takes the voice first, so the first
    /// transition (the warm-up's, in replay) follows it rather than being cut.
    private mutating func introduction(at seconds: Double) -> [Cue] {
        guard let text = pendingIntroduction else { return [] }
        pendingIntroduction = nil
        guard enabled.contains(.transition) else { return [] }
        let measured = timing.measure(text, language: language)
        return queue.place(Cue(atSeconds: seconds, text: text, kind: .transition, anchorSeconds: seconds,
                               durationSeconds: measured.durationSeconds), staleAfterSeconds: 0)
    }

    private mutating func cues(for event: EngineEvent) -> [Cue] {
        let at = event.time.seconds
        switch event {
        case .countdown(let n, let nextIndex, _):
            // The closing cue already fills the workout's last seconds.
            if closed && nextIndex == nil { return [] }
            var said = beat(phrases.countdown(n), anchor: at, kind: .countdown)
            // On the last count the next phase is certain: plan its transition for the boundary.
            if n == 1, let nextIndex, workout.phases.indices.contains(nextIndex) {
                announcedPhase = nextIndex
                said += transition(to: nextIndex, anchor: at + 1)
            }
            return said
        case .phaseStarted(let index, _):
            if announcedPhase == index || !workout.phases.indices.contains(index) { return [] }
            announcedPhase = index
            return transition(to: index, anchor: at)
        case .halfway(let index, _):
            guard workout.phases.indices.contains(index) else { return [] }
            let remaining: PhaseTarget
            switch workout.phases[index].target {
            case .duration(let d): remaining = .duration(d / 2)
            case .distance(let m): remaining = .distance(metres: m / 2)
            }
            return prompt(phrases.halfway(remaining: remaining, units: units), at: at, kind: .halfway, staleAfter: 10)
        case .phaseEnded(let record):
            // A restarted phase begins again: its transition is said again.
            if record.reason == .restarted { announcedPhase = nil }
            guard record.planned.kind == .run, record.reason == .completed else { return [] }
            runsFinished += 1
            let active = record.activeDuration.seconds
            let pace = record.distanceMetres > 10 && active > 0
                ? units.pacePerUnit(secondsPerKm: active / (record.distanceMetres / 1000)) : nil
            let text = phrases.intervalSummary(number: runsFinished, distanceMetres: record.distanceMetres,
                                               paceSecondsPerUnit: pace, units: units)
            return prompt(text, at: at, kind: .summary, staleAfter: 15)
        case .paused:
            // A pause inside the last second moves the boundary a transition was planned for:
            // the phase start after resuming announces it again, at the real boundary.
            announcedPhase = nil
            return prompt(phrases.pause(paused: true), at: at, kind: .pauseResume, staleAfter: 5)
        case .resumed:
            let phase = resumeContext
            return prompt(phrases.resumed(phase?.kind, remaining: phase?.remaining, units: units),
                          at: at, kind: .pauseResume, staleAfter: 5)
        case .workoutCompleted, .workoutStopped:
            return []
        }
    }

    /// A split announcement at `atSeconds` (session clock); dropped if it would run into a transition.
    public mutating func cues(for split: Split, atSeconds: Double, upcoming: Boundary?, heartRateBPM: Int? = nil) -> [Cue] {
        let released = reserve(upcoming)
        var text = phrases.split(index: split.index, elapsedSeconds: split.elapsedSeconds,
                                 paceSecondsPerUnit: units.pacePerUnit(secondsPerKm: split.paceSecondsPerKm), units: units)
        if let heartRateBPM { text += " " + phrases.heartRate(heartRateBPM) }
        return released + prompt(text, at: atSeconds, kind: .split, staleAfter: 15)
    }

    /// "GPS signal lost" or "GPS back" ("Waiting for GPS" / "GPS ready" before the first fix).
    public mutating func gps(lost: Bool, reason: GPSGap.Reason, atSeconds: Double, upcoming: Boundary?) -> [Cue] {
        let text = phrases.gps(lost: lost, beforeFirstFix: reason == .noFixYet)
        return reserve(upcoming) + prompt(text, at: atSeconds, kind: .gps, staleAfter: 10)
    }

    /// "Heart rate lost." or "Heart rate back." for a live strap (`HeartRateSensorWatch` decides when).
    public mutating func heartRateSensor(lost: Bool, atSeconds: Double, upcoming: Boundary?) -> [Cue] {
        reserve(upcoming) + prompt(phrases.heartRateSensor(lost: lost), at: atSeconds, kind: .heartRateSensor, staleAfter: 10)
    }

    /// The closing cue with the workout's totals, said when the workout has ended (unless
    /// `closing(endingAt:…)` already placed it ahead of the end).
    public mutating func completion(atSeconds at: Double, distanceMetres: Double, durationSeconds: Double) -> [Cue] {
        guard !closed else { return [] }
        let said = prompt(completionText(distanceMetres: distanceMetres, durationSeconds: durationSeconds),
                          at: at, kind: .complete, staleAfter: .infinity)
        close(if: !said.isEmpty)
        return said
    }

    /// The closing cue placed so that it ends as the workout ends at `endSeconds` (the voice
    /// track then ends with the workout; it stands in for the last countdown). Placed once,
    /// as soon as `nowSeconds` is within its spoken length (or the countdown, if longer) plus
    /// `leadSeconds` of the end;
    /// the totals are those expected at the end.
    public mutating func closing(endingAt endSeconds: Double, nowSeconds: Double, distanceMetres: Double,
                                 durationSeconds: Double, leadSeconds: Double) -> [Cue] {
        guard !closed, enabled.contains(.complete) else { return [] }
        // Decided before the last countdown would begin, so that none of it is said.
        func decisionSeconds(length: Double) -> Double {
            min(endSeconds - length, endSeconds - Double(countdownSeconds)) - leadSeconds
        }
        // Its length barely changes with its numbers: once known, it is measured (synthesised)
        // again only near the moment of decision, not at every fix of the last phase.
        if let known = closingLengthSeconds, nowSeconds < decisionSeconds(length: known) - 1 { return [] }
        let text = completionText(distanceMetres: distanceMetres, durationSeconds: durationSeconds)
        let length = timing.measure(text, language: language).durationSeconds
        closingLengthSeconds = length
        guard nowSeconds >= decisionSeconds(length: length) else { return [] }
        let said = prompt(text, at: max(endSeconds - length, nowSeconds), kind: .complete, staleAfter: .infinity,
                          durationSeconds: length)
        close(if: !said.isEmpty)
        return said
    }

    private mutating func close(if placed: Bool) {
        guard placed else { return }
        closed = true
        queue.discardWaiting()
    }

    private func completionText(distanceMetres: Double, durationSeconds: Double) -> String {
        let pace = distanceMetres > 10 && durationSeconds > 0
            ? units.pacePerUnit(secondsPerKm: durationSeconds / (distanceMetres / 1000)) : nil
        return phrases.complete(distanceMetres: distanceMetres, durationSeconds: durationSeconds,
                                paceSecondsPerUnit: pace, units: units)
    }

    // MARK: Placing

    private mutating func transition(to index: Int, anchor: Double) -> [Cue] {
        beat(transitionText(workout.phases[index]), anchor: anchor, kind: .transition)
    }

    private func transitionText(_ phase: PlannedPhase) -> String {
        if let until = phase.until { return phrases.transition(phase.kind, until: until) }
        return phrases.transition(phase.kind, target: phase.target, units: units)
    }

    /// A coaching cue at `at`, said then or not at all: only when the voice is free, no nearer
    /// than `targetQuietSeconds` to the last transition or countdown, and ending that long before
    /// the next boundary's countdown (`upcomingSeconds`: the boundary, when it is known or estimated).
    public mutating func target(_ advice: TargetCoach.Advice, atSeconds at: Double, upcomingSeconds: Double?) -> [Cue] {
        let kind: CueKind = advice == .backInBand ? .targetBack : .target
        guard enabled.contains(kind), !closed else { return [] }
        let text = phrases.targetAdvice(advice, units: units)
        let length = timing.measure(text, language: language).durationSeconds
        let quiet = Self.targetQuietSeconds
        guard at >= lastBeatEndSeconds + quiet, at >= queue.busyUntilSeconds + queue.gapSeconds, queue.waiting == nil else { return [] }
        if let upcomingSeconds, at + length + quiet > upcomingSeconds - Double(countdownSeconds) - 0.5 { return [] }
        if let window = queue.reserved, at < window.upperBound + quiet, at + length + quiet > window.lowerBound { return [] }
        let cue = Cue(atSeconds: at, text: text, kind: kind, anchorSeconds: at, durationSeconds: length)
        return queue.place(cue, staleAfterSeconds: 0)
    }

    /// A cue whose key word must start at `anchor`: it starts early by the word's onset.
    private mutating func beat(_ text: String, anchor: Double, kind: CueKind) -> [Cue] {
        guard enabled.contains(kind) else { return [] }
        let measured = timing.measure(text, language: language)
        let cue = Cue(atSeconds: anchor - measured.keyWordOffsetSeconds, text: text, kind: kind,
                      anchorSeconds: anchor, durationSeconds: measured.durationSeconds)
        let placed = queue.place(cue, staleAfterSeconds: 0)
        for said in placed where said.kind == .transition || said.kind == .countdown {
            lastBeatEndSeconds = max(lastBeatEndSeconds, said.endSeconds)
        }
        return placed
    }

    private mutating func prompt(_ text: String, at: Double, kind: CueKind, staleAfter: Double,
                                 durationSeconds: Double? = nil) -> [Cue] {
        guard enabled.contains(kind), !closed || kind == .pauseResume else { return [] }
        let length = durationSeconds ?? timing.measure(text, language: language).durationSeconds
        let cue = Cue(atSeconds: at, text: text, kind: kind, anchorSeconds: at, durationSeconds: length)
        return queue.place(cue, staleAfterSeconds: staleAfter)
    }

    /// Keeps the next boundary's countdown and transition clear of background cues.
    private mutating func reserve(_ upcoming: Boundary?) -> [Cue] {
        guard let upcoming else { return queue.reserve(nil) }
        let lead = Double(countdownSeconds) + queue.gapSeconds + 0.5
        var after = 0.0
        if let next = upcoming.nextIndex, workout.phases.indices.contains(next) {
            let phase = workout.phases[next]
            after = timing.measure(transitionText(phase), language: language).durationSeconds
        }
        return queue.reserve((upcoming.seconds - lead)...(upcoming.seconds + after))
    }
}
