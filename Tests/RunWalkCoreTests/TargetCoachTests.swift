import Testing
@testable import RunWalkCore

@Suite("TargetCoach")
struct TargetCoachTests {
    static let band = TargetBand.pace(fastestSecondsPerKm: 360, slowestSecondsPerKm: 390, unit: .km)

    /// Feeds `pace(t)` every second from 0 to `seconds`; the coach's advice is taken as said at once.
    static func advice(seconds: Int, settings: TargetCoach.Settings = .init(), band: TargetBand = band,
                       _ value: (Int) -> Double?) -> [(Int, TargetCoach.Advice)] {
        var coach = TargetCoach(settings: settings)
        coach.begin(band: band)
        var said: [(Int, TargetCoach.Advice)] = []
        for t in 0...seconds {
            if let advice = coach.observe(value(t), atSeconds: Double(t)) {
                coach.said(advice, atSeconds: Double(t))
                said.append((t, advice))
            }
        }
        return said
    }

    @Test("one cue after the grace period, then none on that side for 30 s")
    func graceAndQuiet() {
        let said = Self.advice(seconds: 100) { t in t < 10 ? 375 : 405 }
        #expect(said.map(\.0) == [30, 60, 90], "out from 10 s: first cue at 10 + 20 s grace, then every 30 s")
        #expect(said.allSatisfy { $0.1.side == .below })
    }

    @Test("at the band's edge (less than 5 s/km out) nothing is said")
    func margin() {
        #expect(Self.advice(seconds: 100) { _ in 394 }.isEmpty)
        #expect(Self.advice(seconds: 79) { t in t < 50 ? 394 : 396 }.map(\.0) == [50], "the spell counts from the first second outside")
    }

    @Test("a spell shorter than the grace period says nothing")
    func shortSpells() {
        let said = Self.advice(seconds: 300) { t in t % 40 < 19 ? 420 : 375 }
        #expect(said.isEmpty)
    }

    @Test("worse means 15 s/km (or half as far again) further out than at the last cue, and at least 10 s after it")
    func worse() {
        let said = Self.advice(seconds: 60) { t in t < 35 ? 400 : 420 }
        // First cue at 20 s (10 s/km out); at 35 s it is 30 s/km out: worse by 20 ≥ 15, 15 s after the cue.
        #expect(said.map(\.0) == [20, 35])
        let slightly = Self.advice(seconds: 45) { t in t < 35 ? 400 : 410 }
        #expect(slightly.map(\.0) == [20], "10 s/km more is not worse")
        // Worse again after an early cue: the full 30 s first (20, 35 early, then 65).
        #expect(Self.advice(seconds: 70) { t in t < 35 ? 400 : (t < 47 ? 420 : 460) }.map(\.0) == [20, 35, 65])
        // Far out (a walking pace, 300 s/km out), worse needs half as much again: 150 s/km.
        #expect(Self.advice(seconds: 45) { t in t < 35 ? 690 : 800 }.map(\.0) == [20])
        #expect(Self.advice(seconds: 45) { t in t < 35 ? 690 : 840 }.map(\.0) == [20, 35])
    }

    @Test("each side has its own quiet; standing still is not coached and restarts the grace")
    func sidesAndStanding() {
        let said = Self.advice(seconds: 79) { t in t < 25 ? 420 : (t < 30 ? nil : 330) }
        #expect(said.map(\.0) == [20, 50])
        #expect(said.map(\.1.side) == [.below, .above])
        let standing = Self.advice(seconds: 120) { t in t % 15 == 0 ? nil : 600 }
        #expect(standing.isEmpty, "a stop every 15 s (traffic lights) never lets the grace run out")
    }

    @Test("back in band only when switched on, and only after a cue")
    func backInBand() {
        var settings = TargetCoach.Settings()
        #expect(Self.advice(seconds: 40, settings: settings) { t in t < 25 ? 420 : 375 }.map(\.1.side) == [.below])
        settings.backInBand = true
        let said = Self.advice(seconds: 40, settings: settings) { t in t < 25 ? 420 : 375 }
        #expect(said.map(\.0) == [20, 25])
        #expect(said.last?.1 == .backInBand)
        #expect(Self.advice(seconds: 40, settings: settings) { t in t < 15 ? 420 : 375 }.isEmpty)
    }

    @Test("heart rate: ease off above the band, worse is 5 bpm")
    func heartRate() {
        let said = Self.advice(seconds: 59, band: .heartRate(low: 140, high: 150)) { t in t < 30 ? 155 : 162 }
        #expect(said.map(\.0) == [20, 30])
        #expect(said.first?.1 == .slowDown(.heartRate(low: 140, high: 150), value: 155))
    }

    @Test("the phrases", arguments: [
        (Language.en, TargetCoach.Advice.speedUp(band, value: 405), "Speed up, 6 minutes 45 per kilometre."),
        (.en, .slowDown(band, value: 320), "Slow down, 5 minutes 20 per kilometre."),
        (.en, .slowDown(.heartRate(low: 140, high: 150), value: 158), "Ease off, heart rate 158."),
        (.en, .speedUp(.heartRate(low: 140, high: 150), value: 131), "Speed up, heart rate 131."),
        (.en, .backInBand, "Back on target."),
        (.de, .speedUp(band, value: 405), "Schneller, 6 Minuten 45 pro Kilometer."),
        (.de, .slowDown(.heartRate(low: 140, high: 150), value: 158), "Ruhiger, Puls 158."),
    ])
    func phrases(language: Language, advice: TargetCoach.Advice, text: String) {
        #expect(language.phrases.targetAdvice(advice, units: .metric) == text)
    }
}

@Suite("TargetTally")
struct TargetTallyTests {
    @Test("time in, below and above add up to the phase's active time")
    func addsUp() throws {
        var tally = TargetTally()
        tally.begin(band: TargetCoachTests.band)
        let paces: [Double?] = [nil, 400, 380, 370, 350, 350, 375, nil, 395]
        for (i, pace) in paces.enumerated() { tally.observe(pace, activeSeconds: Double(i) * 10 + 0.5) }
        let finished = tally.finish(activeSeconds: 90)
        let times = try #require(finished)
        #expect(times.inSeconds == 30)
        #expect(times.aboveSeconds == 20)
        #expect(times.belowSeconds == 40, "no pace (standing) counts as below")
        #expect(times.totalSeconds == 90)
        let none = tally.finish(activeSeconds: 10)
        #expect(none == nil, "no band, no times")
    }
}
