/// German wording, for espeak-ng's "de" voice ("eine Minute", "1 Komma 5 Kilometer").
public struct GermanPhrases: PhraseTable {
    public let spoken = SpokenText(
        second: CountedWord(one: "eine Sekunde", plural: "Sekunden"),
        minute: CountedWord(one: "eine Minute", plural: "Minuten"),
        hour: CountedWord(one: "eine Stunde", plural: "Stunden"),
        metre: CountedWord(one: "ein Meter", plural: "Meter"),
        kilometre: CountedWord(one: "ein Kilometer", plural: "Kilometer"),
        mile: CountedWord(one: "eine Meile", plural: "Meilen"),
        yard: CountedWord(one: "ein Yard", plural: "Yards"),
        point: "Komma")

    public init() {}

    public func transition(_ kind: PhaseKind, target: PhaseTarget, units: Units) -> String {
        return "\(verb(kind)) für \(amount(target, units))."
    }

    public func countdown(_ secondsLeft: Int) -> String { "\(secondsLeft)" }

    public func halfway(remaining: PhaseTarget, units: Units) -> String {
        "Halbzeit. Noch \(amount(remaining, units))."
    }

    public func split(index: Int, elapsedSeconds: Double, paceSecondsPerUnit: Double, units: Units) -> String {
        "\(units == .metric ? "Kilometer" : "Meile") \(index) in \(spoken.clock(elapsedSeconds)). Tempo \(pace(paceSecondsPerUnit, units))."
    }

    public func heartRate(_ bpm: Int) -> String { "Puls \(bpm)." }

    public func intervalSummary(number: Int, distanceMetres: Double, paceSecondsPerUnit: Double?, units: Units) -> String {
        let distance = spoken.distance(distanceMetres, units: units)
        guard let paceSecondsPerUnit else { return "Lauf \(number): \(distance)." }
        return "Lauf \(number): \(distance), Tempo \(pace(paceSecondsPerUnit, units))."
    }

    public func gps(lost: Bool, beforeFirstFix: Bool) -> String {
        if beforeFirstFix { return lost ? "Warte auf GPS." : "GPS bereit." }
        return lost ? "GPS-Signal verloren." : "GPS wieder da."
    }

    public func heartRateSensor(lost: Bool) -> String { lost ? "Herzfrequenz verloren." : "Herzfrequenz wieder da." }

    public func pause(paused: Bool) -> String { paused ? "Pause." : "Weiter." }

    public func resumed(_ kind: PhaseKind?, remaining: PhaseTarget?, units: Units) -> String {
        guard let kind else { return pause(paused: false) }
        let name: String
        switch kind {
        case .warmup: name = "Aufwärmen"
        case .run: name = "Laufen"
        case .walk: name = "Gehen"
        case .cooldown: name = "Auslaufen"
        }
        guard let remaining else { return "Weiter. \(name)." }
        return "Weiter. \(name), noch \(left(remaining, units))."
    }

    /// Was von einer Phase bleibt: "1 Minute 12", "45 Sekunden", "250 Meter".
    private func left(_ target: PhaseTarget, _ units: Units) -> String {
        switch target {
        case .duration(let d): return spoken.clock(d.seconds)
        case .distance(let m): return spoken.distance(m, units: units)
        }
    }

    public func complete(distanceMetres: Double, durationSeconds: Double, paceSecondsPerUnit: Double?, units: Units) -> String {
        var text = "Training beendet. \(spoken.distance(distanceMetres, units: units)) in \(spoken.duration(durationSeconds))."
        if let paceSecondsPerUnit { text += " Durchschnittstempo \(pace(paceSecondsPerUnit, units))." }
        return text
    }

    private func amount(_ target: PhaseTarget, _ units: Units) -> String {
        switch target {
        case .duration(let d): return spoken.duration(d.seconds)
        case .distance(let m): return spoken.distance(m, units: units)
        }
    }

    /// "6 Minuten 5 pro Kilometer".
    private func pace(_ seconds: Double, _ units: Units) -> String {
        "\(spoken.clock(seconds)) pro \(units == .metric ? "Kilometer" : "Meile")"
    }

    public func transition(_ kind: PhaseKind, until: HeartRateCondition) -> String {
        return "\(verb(kind)) bis Puls \(until.thresholdBpm)."
    }

    public func targetAdvice(_ advice: TargetCoach.Advice, units: Units) -> String {
        switch advice {
        case .speedUp(.heartRate, let bpm): return "Schneller, Puls \(Int(bpm.rounded()))."
        case .slowDown(.heartRate, let bpm): return "Ruhiger, Puls \(Int(bpm.rounded()))."
        case .speedUp(_, let pace): return "Schneller, \(self.pace(units.pacePerUnit(secondsPerKm: pace), units))."
        case .slowDown(_, let pace): return "Langsamer, \(self.pace(units.pacePerUnit(secondsPerKm: pace), units))."
        case .backInBand: return "Wieder im Zielbereich."
        }
    }

    /// The phase's verb, as a transition cue opens with it.
    private func verb(_ kind: PhaseKind) -> String {
        switch kind {
        case .warmup: "Aufwärmen"
        case .run: "Laufen"
        case .walk: "Gehen"
        case .cooldown: "Auslaufen"
        }
    }
}
