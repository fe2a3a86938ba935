import Testing
@testable import RunWalkCore

@Suite("HeartRateZones")
struct HeartRateZonesTests {
    @Test("heart-rate reserve: 60/70/80/90 % of max - rest above rest")
    func reserve() {
        let zones = HeartRateZones(basis: .reserve(maxBPM: 190, restingBPM: 60))
        #expect(zones.lowerBounds == [138, 151, 164, 177])
        #expect([100, 137, 138, 150, 151, 164, 176, 177, 200].map(zones.zone(of:)) == [1, 1, 2, 2, 3, 4, 4, 5, 5])
        #expect(HeartRateZones.standard == zones)
    }

    @Test("lactate threshold: 85/90/95/100 %")
    func lthr() {
        let zones = HeartRateZones(basis: .lactateThreshold(bpm: 160))
        #expect(zones.lowerBounds == [136, 144, 152, 160])
        #expect([135, 136, 150, 159, 160].map(zones.zone(of:)) == [1, 2, 3, 4, 5])
    }

    @Test("from the settings: the threshold over max and rest, each defaulted")
    func fromSettings() throws {
        #expect(HeartRateZones(settings: UserSettings()) == .standard)
        let reserve = try UserSettings(parsing: "hr.max = 200\nhr.rest = 50\n")
        #expect(HeartRateZones(settings: reserve).basis == .reserve(maxBPM: 200, restingBPM: 50))
        let lthr = try UserSettings(parsing: "hr.max = 200\nhr.lthr = 170\n")
        #expect(HeartRateZones(settings: lthr).basis == .lactateThreshold(bpm: 170))
    }

    @Test("settings keys hr, hr.max, hr.rest, hr.lthr, voice.hr")
    func settings() throws {
        let s = try UserSettings(parsing: "hr = c0:ff:ee:00:12:34\nhr.max = 188\nhr.rest = 52\nhr.lthr = 165\nvoice.hr = on\n")
        #expect(s.heartRateSensor == .address("C0:FF:EE:00:12:34"))
        #expect(s.heartRateMax == 188 && s.heartRateResting == 52 && s.heartRateLactateThreshold == 165 && s.voiceHeartRate == true)
        #expect(try UserSettings(parsing: "hr = auto").heartRateSensor == .auto)
        #expect(try UserSettings(parsing: "hr = off").heartRateSensor == .off)
    }

    @Test("bad heart-rate settings name line and column", arguments: [
        ("hr = maybe", 1, 6, "hr = maybe: expected auto, off or a Bluetooth address like C0:FF:EE:00:12:34"),
        ("hr = C0:FF:EE:00:12", 1, 6, "hr = C0:FF:EE:00:12: expected auto, off or a Bluetooth address like C0:FF:EE:00:12:34"),
        ("hr.max = 0", 1, 10, "hr.max = 0: expected beats per minute from 20 to 250"),
        ("hr.rest = 255", 1, 11, "hr.rest = 255: expected beats per minute from 20 to 250"),
        ("hr.max = 150\nhr.rest = 160", 2, 11, "hr.rest (160) must be below hr.max (150)"),
        ("voice.hr = yes", 1, 12, "voice.hr = yes: expected on or off"),
    ])
    func mistakes(text: String, line: Int, column: Int, message: String) {
        #expect(throws: ConfigFileError(line: line, column: column, message: message)) { try UserSettings(parsing: text) }
    }
}

@Suite("HeartRateStats")
struct HeartRateStatsTests {
    let zones = HeartRateZones.standard

    @Test("time-weighted average, maximum and seconds in zones")
    func stats() throws {
        let samples = (0..<10).map { HeartRateSample(seconds: Double($0), bpm: $0 < 5 ? 130 : 160) }
        let stats = try #require(HeartRateStats(samples: samples, from: 0, to: 10, zones: zones))
        #expect(stats.averageBPM == 145 && stats.maxBPM == 160)
        #expect(stats.zoneSeconds == [5, 0, 5, 0, 0])
        #expect(stats.coveredSeconds == 10)
    }

    @Test("a window starts inside a sample's hold and ends inside another's")
    func window() throws {
        let samples = [HeartRateSample(seconds: 0, bpm: 100), HeartRateSample(seconds: 2, bpm: 200)]
        let stats = try #require(HeartRateStats(samples: samples, from: 1, to: 3, zones: zones))
        #expect(stats.averageBPM == 150 && stats.maxBPM == 200 && stats.coveredSeconds == 2)
    }

    @Test("a strap gone quiet counts nothing: no zero enters the average")
    func gap() throws {
        let samples = [HeartRateSample(seconds: 0, bpm: 140), HeartRateSample(seconds: 60, bpm: 140)]
        let stats = try #require(HeartRateStats(samples: samples, from: 0, to: 65, zones: zones))
        #expect(stats.averageBPM == 140 && stats.coveredSeconds == 10)
        #expect(HeartRateStats(samples: samples, from: 20, to: 50, zones: zones) == nil)
        #expect(HeartRateStats(samples: [], from: 0, to: 10, zones: zones) == nil)
    }

    @Test("aerobic decoupling: same pace, the heart rate drifting up 10 %")
    func decoupling() throws {
        let speeds = (0..<100).map { (seconds: Double($0), metresPerSecond: 3.0) }
        let samples = (0..<100).map { HeartRateSample(seconds: Double($0), bpm: $0 < 50 ? 140 : 154) }
        let percent = try #require(AerobicDecoupling.percent(speeds: speeds, samples: samples, from: 0, to: 100))
        #expect(abs(percent - 9.1) < 0.05)
        #expect(AerobicDecoupling.percent(speeds: speeds, samples: [], from: 0, to: 100) == nil)
    }
}
