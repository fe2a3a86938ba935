import RunWalkCore
import Testing

@Suite("TimeText: the one m:ss / h:mm:ss formatter")
struct TimeTextTests {
    @Test("whole seconds, minutes and hours", arguments: [
        (0.0, "0:00"), (7, "0:07"), (59, "0:59"), (60, "1:00"), (72, "1:12"), (599, "9:59"), (760, "12:40"),
        (3599, "59:59"), (3600, "1:00:00"), (3725, "1:02:05"), (36_000, "10:00:00"), (360_000, "100:00:00"),
    ])
    func wholeSeconds(seconds: Double, expected: String) {
        #expect(TimeText.clock(seconds) == expected)
    }

    @Test("to the nearest second by default, halves away from zero; up and down on request", arguments: [
        (72.4, FloatingPointRoundingRule.toNearestOrAwayFromZero, "1:12"), (72.5, .toNearestOrAwayFromZero, "1:13"),
        (59.5, .toNearestOrAwayFromZero, "1:00"), (3599.5, .toNearestOrAwayFromZero, "1:00:00"),
        (71.2, .up, "1:12"), (0.01, .up, "0:01"), (59.001, .up, "1:00"),
        (72.9, .down, "1:12"), (3599.99, .down, "59:59"), (0.99, .down, "0:00"),
    ])
    func rounding(seconds: Double, rule: FloatingPointRoundingRule, expected: String) {
        #expect(TimeText.clock(seconds, rounding: rule) == expected)
    }

    @Test("a negative time reads 0:00, however it is rounded", arguments: [-0.4, -1, -59.5, -3600, -1e300])
    func negative(seconds: Double) {
        #expect(TimeText.clock(seconds) == "0:00")
        #expect(TimeText.clock(seconds, rounding: .up) == "0:00")
        #expect(TimeText.clock(seconds, rounding: .down) == "0:00")
    }

    @Test("NaN, infinities and times no Int holds read --:-- (never a trap)",
          arguments: [Double.nan, .infinity, -.infinity, 1e300, .greatestFiniteMagnitude])
    func notATime(seconds: Double) {
        #expect(TimeText.clock(seconds) == "--:--")
        #expect(TimeText.clock(seconds, rounding: .up) == "--:--")
    }
}

@Suite("GPSStateText: the one wording of the GPS state")
struct GPSStateTextTests {
    @Test("each state as every front end shows it", arguments: [
        (GPSStateText.line(.fix, accuracyMetres: 4.4, satellites: 9), "GPS fix ±4 m, 9 sats"),
        (GPSStateText.line(.fix, satellites: 7), "GPS fix 7 sats"),
        (GPSStateText.line(.fix, accuracyMetres: 2.5), "GPS fix ±3 m"),
        (GPSStateText.line(.fix), "GPS fix"),
        (GPSStateText.line(.noFix), "No GPS fix yet"),
        (GPSStateText.line(.noFix, lostForSeconds: 0.6), "No GPS fix yet"),
        (GPSStateText.line(.noFix, lostForSeconds: 23.9), "No GPS fix for 0:23"),
        (GPSStateText.line(.lost), "GPS lost"),
        (GPSStateText.line(.lost, lostForSeconds: 12), "GPS lost for 0:12"),
        (GPSStateText.line(.lost, lostForSeconds: 72.8), "GPS lost for 1:12"),
        (GPSStateText.line(.lost, lostForSeconds: 3725), "GPS lost for 1:02:05"),
    ])
    func states(line: String, expected: String) {
        #expect(line == expected)
    }

    @Test("the source's reason beats a bare no fix or lost; a fix beats a stale reason")
    func problem() {
        #expect(GPSStateText.line(.noFix, problem: "gpsd has no receiver") == "GPS: gpsd has no receiver")
        #expect(GPSStateText.line(.lost, lostForSeconds: 30, problem: "receiver unplugged") == "GPS: receiver unplugged")
        #expect(GPSStateText.line(.fix, satellites: 9, problem: "stale") == "GPS fix 9 sats")
        #expect(GPSStateText.line(.noFix, problem: "") == "No GPS fix yet", "an empty reason is no reason")
    }

    @Test("an accuracy or a time that is not a number is left out, never a trap")
    func badNumbers() {
        #expect(GPSStateText.line(.fix, accuracyMetres: .nan, satellites: 9) == "GPS fix 9 sats")
        #expect(GPSStateText.line(.fix, accuracyMetres: .infinity) == "GPS fix")
        #expect(GPSStateText.line(.fix, accuracyMetres: 1e300) == "GPS fix")
        #expect(GPSStateText.line(.lost, lostForSeconds: .nan) == "GPS lost")
        #expect(GPSStateText.line(.noFix, lostForSeconds: .infinity) == "No GPS fix yet")
    }
}
