/// English wording (British spelling, which espeak-ng's "en" voice reads as written).
public struct EnglishPhrases: PhraseTable {
    public let spoken = SpokenText(
        second: CountedWord(one: "1 second", plural: "seconds"),
        minute: CountedWord(one: "1 minute", plural: "minutes"),
        hour: CountedWord(one: "1 hour", plural: "hours"),
        metre: CountedWord(one: "1 metre", plural: "metres"),
        kilometre: CountedWord(one: "1 kilometre", plural: "kilometres"),
        mile: CountedWord(one: "1 mile", plural: "miles"),
        yard: CountedWord(one: "1 yard", plural: "yards"),
        point: "point")

    public init() {}

    public func transition(_ kind: PhaseKind, target: PhaseTarget, units: Units) -> String {
        return "\(verb(kind)) for \(amount(target, units))."
    }

    public func countdown(_ secondsLeft: Int) -> String { "\(secondsLeft)" }

    public func halfway(remaining: PhaseTarget, units: Units) -> String {
        "Halfway. \(amount(remaining, units)) to go."
    }

    public func split(index: Int, elapsedSeconds: Double, paceSecondsPerUnit: Double, units: Units) -> String {
        "\(units == .metric ? "Kilometre" : "Mile") \(index) in \(spoken.clock(elapsedSeconds)). Pace \(pace(paceSecondsPerUnit, units))."
    }

    public func heartRate(_ bpm: Int) -> String { "Heart rate \(bpm)." }

    public func intervalSummary(number: Int, distanceMetres: Double, paceSecondsPerUnit: Double?, units: Units) -> String {
        let distance = spoken.distance(distanceMetres, units: units)
        guard let paceSecondsPerUnit else { return "Run \(number): \(distance)." }
        return "Run \(number): \(distance), pace \(pace(paceSecondsPerUnit, units))."
    }

    public func gps(lost: Bool, beforeFirstFix: Bool) -> String {
        if beforeFirstFix { return lost ? "Waiting for GPS." : "GPS ready." }
        return lost ? "GPS signal lost." : "GPS back."
    }

    public func heartRateSensor(lost: Bool) -> String { lost ? "Heart rate lost." : "Heart rate back." }

    public func pause(paused: Bool) -> String { paused ? "Paused." : "Resumed." }

    public func resumed(_ kind: PhaseKind?, remaining: PhaseTarget?, units: Units) -> String {
        guard let kind else { return pause(paused: false) }
        let name: String
        switch kind {
        case .warmup: name = "Warm-up"
        case .run: name = "Run"
        case .walk: name = "Walk"
        case .cooldown: name = "Cool-down"
        }
        guard let remaining else { return "Resumed. \(name)." }
        return "Resumed. \(name), \(left(remaining, units)) to go."
    }

    /// What is left of a phase as a runner says it: "1 minute 12", "45 seconds", "250 metres".
    private func left(_ target: PhaseTarget, _ units: Units) -> String {
        switch target {
        case .duration(let d): return spoken.clock(d.seconds)
        case .distance(let m): return spoken.distance(m, units: units)
        }
    }

    public func complete(distanceMetres: Double, durationSeconds: Double, paceSecondsPerUnit: Double?, units: Units) -> String {
        var text = "Workout complete. \(spoken.distance(distanceMetres, units: units)) in \(spoken.duration(durationSeconds))."
        if let paceSecondsPerUnit { text += " Average pace \(pace(paceSecondsPerUnit, units))." }
        return text
    }

    private func amount(_ target: PhaseTarget, _ units: Units) -> String {
        switch target {
        case .duration(let d): return spoken.duration(d.seconds)
        case .distance(let m): return spoken.distance(m, units: units)
        }
    }

    /// "6 minutes 5 per kilometre".
    private func pace(_ seconds: Double, _ units: Units) -> String {
        "\(spoken.clock(seconds)) per \(units == .metric ? "kilometre" : "mile")"
    }

    public func transition(_ kind: PhaseKind, until: HeartRateCondition) -> String {
        return "\(verb(kind)) until heart rate \(until.thresholdBpm)."
    }

    public func targetAdvice(_ advice: TargetCoach.Advice, units: Units) -> String {
        switch advice {
        case .speedUp(.heartRate, let bpm): return "Speed up, heart rate \(Int(bpm.rounded()))."
        case .slowDown(.heartRate, let bpm): return "Ease off, heart rate \(Int(bpm.rounded()))."
        case .speedUp(_, let pace): return "Speed up, \(self.pace(units.pacePerUnit(secondsPerKm: pace), units))."
        case .slowDown(_, let pace): return "Slow down, \(self.pace(units.pacePerUnit(secondsPerKm: pace), units))."
        case .backInBand: return "Back on target."
        }
    }

    /// The phase's verb, as a transition cue opens with it.
    private func verb(_ kind: PhaseKind) -> String {
        switch kind {
        case .warmup: "Warm up"
        case .run: "Run"
        case .walk: "Walk"
        case .cooldown: "Cool down"
        }
    }
}
