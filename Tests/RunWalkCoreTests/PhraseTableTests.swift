import Testing
@testable import RunWalkCore

@Suite("PhraseTable")
struct PhraseTableTests {
    static let en = EnglishPhrases()
    static let de = GermanPhrases()

    @Test("transitions start with their key word", arguments: [
        (PhaseKind.run, PhaseTarget.duration(.seconds(90)), Units.metric, "Run for 90 seconds.", "Laufen für 90 Sekunden."),
        (.walk, .duration(.seconds(60)), .metric, "Walk for 1 minute.", "Gehen für eine Minute."),
        (.warmup, .duration(.seconds(300)), .metric, "Warm up for 5 minutes.", "Aufwärmen für 5 Minuten."),
        (.cooldown, .duration(.seconds(300)), .metric, "Cool down for 5 minutes.", "Auslaufen für 5 Minuten."),
        (.run, .distance(metres: 400), .metric, "Run for 400 metres.", "Laufen für 400 Meter."),
        (.run, .distance(metres: 1609.344), .imperial, "Run for 1 mile.", "Laufen für eine Meile."),
    ])
    func transitions(kind: PhaseKind, target: PhaseTarget, units: Units, english: String, german: String) {
        #expect(Self.en.transition(kind, target: target, units: units) == english)
        #expect(Self.de.transition(kind, target: target, units: units) == german)
    }

    @Test("split announcements in the runner's units")
    func splits() {
        #expect(Self.en.split(index: 2, elapsedSeconds: 760, paceSecondsPerUnit: 365, units: .metric)
            == "Kilometre 2 in 12 minutes 40. Pace 6 minutes 5 per kilometre.")
        #expect(Self.en.split(index: 1, elapsedSeconds: 587, paceSecondsPerUnit: 587, units: .imperial)
            == "Mile 1 in 9 minutes 47. Pace 9 minutes 47 per mile.")
        #expect(Self.de.split(index: 2, elapsedSeconds: 760, paceSecondsPerUnit: 365, units: .metric)
            == "Kilometer 2 in 12 Minuten 40. Tempo 6 Minuten 5 pro Kilometer.")
    }

    @Test("the closing cue gives distance, time and average pace")
    func complete() {
        #expect(Self.en.complete(distanceMetres: 5200, durationSeconds: 2280, paceSecondsPerUnit: 438.4, units: .metric)
            == "Workout complete. 5 point 2 kilometres in 38 minutes. Average pace 7 minutes 18 per kilometre.")
        #expect(Self.de.complete(distanceMetres: 5200, durationSeconds: 2280, paceSecondsPerUnit: 438.4, units: .metric)
            == "Training beendet. 5 Komma 2 Kilometer in 38 Minuten. Durchschnittstempo 7 Minuten 18 pro Kilometer.")
        #expect(Self.en.complete(distanceMetres: 0, durationSeconds: 60, paceSecondsPerUnit: nil, units: .metric)
            == "Workout complete. 0 metres in 1 minute.")
    }

    @Test("halfway, interval summary, GPS and pause wording")
    func others() {
        #expect(Self.en.halfway(remaining: .duration(.seconds(45)), units: .metric) == "Halfway. 45 seconds to go.")
        #expect(Self.de.halfway(remaining: .distance(metres: 200), units: .metric) == "Halbzeit. Noch 200 Meter.")
        #expect(Self.en.intervalSummary(number: 3, distanceMetres: 320, paceSecondsPerUnit: 281, units: .metric)
            == "Run 3: 320 metres, pace 4 minutes 41 per kilometre.")
        #expect(Self.en.gps(lost: true, beforeFirstFix: false) == "GPS signal lost.")
        #expect(Self.en.gps(lost: false, beforeFirstFix: true) == "GPS ready.")
        #expect(Self.de.gps(lost: false, beforeFirstFix: false) == "GPS wieder da.")
        #expect(Self.en.pause(paused: false) == "Resumed.")
        #expect(Self.de.pause(paused: true) == "Pause.")
    }

    @Test("every language has a table and an espeak-ng voice", arguments: Language.allCases)
    func languages(language: Language) {
        #expect(!language.voiceName.isEmpty)
        #expect(!language.phrases.countdown(3).isEmpty)
    }
}
