import RunWalkAppModel
import RunWalkCore
import RunWalkRuntime
import Testing

@Suite struct GPSProbeModelTests {
    static func fix(satellites: Int?, hdop: Double?, position: Bool = true) -> Fix {
        var fix = Fix(time: UTCTime(milliseconds: 0))
        if position {
            fix.latitude = 47.1
            fix.longitude = 8.5
            fix.mode = .threeD
        } else {
            fix.mode = .noFix
        }
        fix.satellitesUsed = satellites
        fix.hdop = hdop
        return fix
    }

    @Test func connectingThenNoFixThenAFix() {
        var model = GPSProbeModel(source: "gpsd at localhost:2947")
        #expect(model.line == "Connecting to gpsd at localhost:2947…")
        model.handle(.connected("gpsd"))
        #expect(model.line == "No GPS fix yet (gpsd at localhost:2947)")
        model.handle(.fix(Self.fix(satellites: 3, hdop: nil, position: false)))
        #expect(model.line == "No GPS fix yet · 3 satellites seen (gpsd at localhost:2947)")
        #expect(!model.hasFix)
        // HDOP 1.2 at the default 3 m user range error: ±4 m.
        model.handle(.fix(Self.fix(satellites: 9, hdop: 1.2)))
        #expect(model.line == "GPS fix ±4 m, 9 sats (gpsd at localhost:2947)")
        #expect(model.hasFix)
        // A reconnect does not hide the fix already seen.
        model.handle(.connected("gpsd"))
        #expect(model.hasFix)
    }

    @Test func unavailableSaysWhy() {
        var model = GPSProbeModel(source: "gpsd at localhost:2947")
        model.handle(.unavailable("gpsd at localhost:2947 is not running"))
        #expect(model.line == "GPS unavailable: gpsd at localhost:2947 is not running")
        #expect(!model.hasFix)
    }

    @Test func aTrackWithoutAFixSaysSoAtItsEnd() {
        var model = GPSProbeModel(source: "t.nmea")
        model.handle(.connected("t.nmea"))
        model.handle(.ended)
        #expect(model.line == "No fix in t.nmea")
    }

    @Test func gpsdWithoutAReceiverIsNamed() {
        var model = GPSProbeModel(source: "gpsd at localhost:2947")
        model.handle(.connected("gpsd at localhost:2947"))
        model.handle(.problem("gpsd has no receiver"))
        #expect(model.line == "GPS: gpsd has no receiver (gpsd at localhost:2947)")
        model.handle(.problem(nil))
        #expect(model.line == "GPS: gpsd has no receiver (gpsd at localhost:2947)", "the next event tells what changed")
    }
}
