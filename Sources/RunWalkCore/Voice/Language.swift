/// A language the voice speaks; each has a phrase table and an espeak-ng voice.
public enum Language: String, Sendable, Codable, CaseIterable {
    case en, de

    /// espeak-ng's voice name for it.
    public var voiceName: String { rawValue }

    /// The words for every cue.
    public var phrases: any PhraseTable {
        switch self {
        case .en: return EnglishPhrases()
        case .de: return GermanPhrases()
        }
    }
}

/// Every cue's wording in one language.
///
/// A transition and a countdown number begin with their key word ("Run", "3"): the
/// planner starts them early by that word's onset so the word lands on the beat.
public protocol PhraseTable: Sendable {
    /// "Run for 90 seconds."
    func transition(_ kind: PhaseKind, target: PhaseTarget, units: Units) -> String
    /// "3"
    func countdown(_ secondsLeft: Int) -> String
    /// "Halfway. 45 seconds to go."
    func halfway(remaining: PhaseTarget, units: Units) -> String
    /// "Kilometre 2 in 12 minutes 40. Pace 6 minutes 5 per kilometre."
    func split(index: Int, elapsedSeconds: Double, paceSecondsPerUnit: Double, units: Units) -> String
    /// "Heart rate 148." (after a split, with `voice.hr = on`)
    func heartRate(_ bpm: Int) -> String
    /// "Run 3: 320 metres, pace 6 minutes 5 per kilometre."
    func intervalSummary(number: Int, distanceMetres: Double, paceSecondsPerUnit: Double?, units: Units) -> String
    /// "GPS signal lost." / "GPS back."; before the first fix "Waiting for GPS." / "GPS ready."
    func gps(lost: Bool, beforeFirstFix: Bool) -> String
    /// "Heart rate lost." / "Heart rate back." (a live strap)
    func heartRateSensor(lost: Bool) -> String
    /// "Paused." / "Resumed."
    func pause(paused: Bool) -> String
    /// "Resumed. Run, 1 minute 12 to go." (the phase and what is left of it, when known)
    func resumed(_ kind: PhaseKind?, remaining: PhaseTarget?, units: Units) -> String
    /// "Workout complete. 3.9 kilometres in 30 minutes. Average pace 7 minutes 46 per kilometre."
    func complete(distanceMetres: Double, durationSeconds: Double, paceSecondsPerUnit: Double?, units: Units) -> String
    /// "Run until heart rate 150." (a phase that ends on the heart rate)
    func transition(_ kind: PhaseKind, until: HeartRateCondition) -> String
    /// "Speed up, 6 minutes 45 per kilometre." / "Ease off, heart rate 158." / "Back on target."
    func targetAdvice(_ advice: TargetCoach.Advice, units: Units) -> String
}

extension Units {
    /// Seconds per split unit (kilometre or mile) for a pace in seconds per kilometre.
    public func pacePerUnit(secondsPerKm: Double) -> Double { secondsPerKm * splitMetres / 1000 }
}
