import Testing
@testable import RunWalkCore

@Suite("SpokenText")
struct SpokenTextTests {
    static let english = EnglishPhrases().spoken
    static let german = GermanPhrases().spoken

    @Test("durations as a voice says them", arguments: [
        (90.0, "90 seconds", "90 Sekunden"),
        (1, "1 second", "eine Sekunde"),
        (60, "1 minute", "eine Minute"),
        (120, "2 minutes", "2 Minuten"),
        (150, "2 minutes 30 seconds", "2 Minuten 30 Sekunden"),
        (300, "5 minutes", "5 Minuten"),
        (3900, "1 hour 5 minutes", "eine Stunde 5 Minuten"),
    ])
    func durations(seconds: Double, english: String, german: String) {
        #expect(Self.english.duration(seconds) == english)
        #expect(Self.german.duration(seconds) == german)
    }

    @Test("clock-like times: minutes, then the seconds as a bare number", arguments: [
        (365.0, "6 minutes 5", "6 Minuten 5"),
        (760, "12 minutes 40", "12 Minuten 40"),
        (360, "6 minutes", "6 Minuten"),
        (65, "1 minute 5", "eine Minute 5"),
        (45, "45 seconds", "45 Sekunden"),
        (3725, "1 hour 2 minutes 5", "eine Stunde 2 Minuten 5"),
    ])
    func clock(seconds: Double, english: String, german: String) {
        #expect(Self.english.clock(seconds) == english)
        #expect(Self.german.clock(seconds) == german)
    }

    @Test("distances, metric and imperial", arguments: [
        (400.0, Units.metric, "400 metres", "400 Meter"),
        (1500, .metric, "1 point 5 kilometres", "1 Komma 5 Kilometer"),
        (1000, .metric, "1 kilometre", "ein Kilometer"),
        (5230, .metric, "5 point 2 kilometres", "5 Komma 2 Kilometer"),
        (1609.344, .imperial, "1 mile", "eine Meile"),
        (4828.032, .imperial, "3 miles", "3 Meilen"),
        (2414.016, .imperial, "1 point 5 miles", "1 Komma 5 Meilen"),
        (182.88, .imperial, "200 yards", "200 Yards"),
    ])
    func distances(metres: Double, units: Units, english: String, german: String) {
        #expect(Self.english.distance(metres, units: units) == english)
        #expect(Self.german.distance(metres, units: units) == german)
    }
}
