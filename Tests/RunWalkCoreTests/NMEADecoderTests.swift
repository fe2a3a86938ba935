import Testing
@testable import RunWalkCore

@Suite("NMEADecoder")
struct NMEADecoderTests {
    func s(_ body: String) -> String { NMEATest.sentence(body) }

    @Test("GGA, RMC, VTG, GSA and GST of one time merge into one fix")
    func mergesAnEpoch() throws {
        let (fixes, stats) = NMEATest.decode([
            s("GPRMC,063000.00,A,4722.614000,N,00832.502000,E,5.83,90.0,120426,,,A"),
            s("GPVTG,91.0,T,,M,5.90,N,10.9,K,A"),
            s("GPGGA,063000.00,4722.614000,N,00832.502000,E,1,09,0.8,410.2,M,48.0,M,,"),
            s("GPGSA,A,3,01,02,03,04,05,06,07,08,09,,,,1.6,0.8,1.4"),
            s("GPGSV,3,1,11,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45"),
            s("GPGST,063000.00,1.2,2.0,1.0,45.0,1.5,1.1,2.5"),
            s("GPRMC,063001.00,A,4722.614000,N,00832.504000,E,5.83,90.0,120426,,,A"),
        ])
        #expect(fixes.count == 2)
        let fix = try #require(fixes.first)
        #expect(fix.time.iso8601() == "2026-04-12T06:30:00.000Z")
        #expect(fix.dateKnown)
        #expect(abs((fix.latitude ?? 0) - (47 + 22.614 / 60)) < 1e-12)
        #expect(abs((fix.longitude ?? 0) - (8 + 32.502 / 60)) < 1e-12)
        #expect(fix.altitudeMSL == 410.2)
        #expect(fix.geoidSeparation == 48.0)
        #expect(abs((fix.speedMetresPerSecond ?? 0) - 5.90 * 1852 / 3600) < 1e-12, "VTG after RMC wins")
        #expect(fix.courseDegrees == 91.0)
        #expect(fix.mode == .threeD)
        #expect(fix.quality == 1)
        #expect(fix.satellitesUsed == 9)
        #expect(fix.satellitesVisible == 11)
        #expect(fix.hdop == 0.8)
        #expect(fix.pdop == 1.6)
        #expect(fix.vdop == 1.4)
        #expect(fix.latitudeErrorMetres == 1.5)
        #expect(fix.altitudeErrorMetres == 2.5)
        #expect(stats.sentences == 7)
        #expect(stats.linesBad == 0)
        #expect(stats.epochs == 2)
    }

    @Test("every talker is decoded the same way", arguments: ["GP", "GN", "GL", "GA", "GB", "BD", "QZ", "GI", "IN", "ZZ"])
    func talkers(talker: String) throws {
        let (fixes, stats) = NMEATest.decode([
            s("\(talker)RMC,120000,A,5130.0000,N,00007.5000,W,10.0,270.0,010125,,,A"),
            s("\(talker)GGA,120000,5130.0000,N,00007.5000,W,1,05,1.0,20.0,M,47.0,M,,"),
            s("\(talker)GNS,120001,5130.0010,N,00007.5010,W,AA,06,0.9,21.0,47.0,,,S"),
            s("\(talker)GLL,5130.0020,N,00007.5020,W,120002,A,A"),
        ])
        #expect(stats.skipped == 0)
        #expect(fixes.map { $0.time.iso8601() } == ["2025-01-01T12:00:00.000Z", "2025-01-01T12:00:01.000Z",
                                                     "2025-01-01T12:00:02.000Z"])
        #expect(fixes.map(\.mode) == [.threeD, .threeD, .threeD])
        let first = try #require(fixes.first)
        // gpsd's arithmetic (degrees + minutes / 60 after splitting at the hundreds) is kept, last bit included.
        #expect(abs((first.longitude ?? 0) + 0.125) < 1e-12)
        #expect(abs((first.latitude ?? 0) - 51.5) < 1e-12)
        #expect(fixes[1].altitudeMSL == 21.0)
        #expect(abs((fixes[2].latitude ?? 0) - (51 + 30.002 / 60)) < 1e-12)
    }

    @Test("proprietary, AIS and unknown sentences are skipped and counted, not bad")
    func skipped() {
        let (fixes, stats) = NMEATest.decode([
            s("PGLOR,1,SVC,GPS,3,1,10,013,UNKN,UNKN,017,UNKN,UNKN,028,UNKN,UNKN,030,UNKN,UNKN,0,0,0,0,0,0,0,0,0,0,0"),
            NMEATest.sentence("AIVDM,1,1,,A,15MgK45P3@G?fl0E`JbR0OwT0@MS,0", start: "!"),
            s("GPTXT,01,01,02,u-blox ag"),
            s("SDDBT,7.7,f,2.3,M,1.3,F"),
        ])
        #expect(fixes.isEmpty)
        #expect(stats.linesBad == 0)
        #expect(stats.skipped == 4)
        #expect(stats.problems == [.proprietary: 1, .ais: 1, .unsupported: 2])
    }

    @Test("bad lines are counted by cause", arguments: [
        ("$GPGGA,120000,5130.0000,N,00007.5000,W,1,05,1.0,20.0,M,47.0,M,,*00", NMEASentence.Problem.badChecksum),
        ("$GPGGA,120000,5130.0000,N*4", .malformedChecksum),
        ("$GPGSA,A,3,26,15,*3\u{1B}[H\u{1B}[J3", .malformedChecksum),
        ("+ 6: 28 (.....)", .notASentence),
        ("\u{00E9}\u{00FF}binary junk", .nonASCII),
        ("$GPGGA,12000", .truncatedField),
        ("$GPGGA,1200ab,5130.0000,N,00007.5000,W,1,05,1.0,20.0,M,47.0,M,,", .truncatedField),
        ("$SkyTraq,Venus6", .notASentence),
    ])
    func badLines(line: String, cause: NMEASentence.Problem) {
        let (_, stats) = NMEATest.decode([line])
        #expect(stats.linesBad == 1)
        #expect(stats.problems == [cause: 1])
    }

    @Test("a sentence without a checksum is accepted (HP 58534A, gpsd does too)")
    func missingChecksum() throws {
        let (fixes, stats) = NMEATest.decode([
            "$GPZDA,222450.00,10,06,2011,00,00",
            "$GPGGA,222450,3658.7640,N,12207.5040,W,1,09,1.0,55.0,M,,,,",
        ])
        #expect(stats.linesBad == 0)
        let fix = try #require(fixes.first)
        #expect(fix.time.iso8601() == "2011-06-10T22:24:50.000Z")
        #expect(fix.mode == .threeD)
    }

    @Test("a sentence spliced into another is decoded, and so is the rest of the outer one")
    func collision() {
        let outer = s("GPGSV,4,1,15,02,11,115,36,05,34,060,48,07,00,023,,13,56,090,49")
        let cut = outer.index(outer.startIndex, offsetBy: 27)
        let inner = s("PTNTA,20160203131539,2,T4,000000066,+107,3,0,3")
        var decoder = NMEADecoder()
        _ = NMEATest.decode([String(outer[..<cut]) + inner, String(outer[cut...])], decoder: &decoder)
        #expect(decoder.statistics.linesBad == 0)
        #expect(decoder.statistics.sentences == 2)
        #expect(decoder.statistics.problems == [.proprietary: 1])
        // A head whose rest never comes is one bad line; the junk line after it another.
        let (_, stats) = NMEATest.decode([String(outer[..<cut]) + inner, "garbage"])
        #expect(stats.problems == [.proprietary: 1, .collision: 1, .notASentence: 1])
    }

    @Test("sentences far longer than 82 characters are accepted")
    func longSentences() throws {
        let (fixes, stats) = NMEATest.decode([
            s("GNRMC,101010.000,A,4807.0381234567890,N,01131.0001234567890,E,0.10,12.50,230394,,,A,V"),
            s("GNGGA,101010.000,4807.0381234567890,N,01131.0001234567890,E,1,12,0.60,545.4123,M,46.9,M,1.0,0000"),
        ])
        #expect(stats.linesBad == 0)
        #expect(abs((try #require(fixes.first).latitude ?? 0) - (48 + 7.038123456789 / 60)) < 1e-12)
    }

    @Test("time-only logs roll over at midnight")
    func midnightWithoutDate() {
        let (fixes, _) = NMEATest.decode([
            s("GPGGA,235959.00,4722.6140,N,00832.5020,E,1,09,0.8,410.2,M,48.0,M,,"),
            s("GPGGA,000000.00,4722.6140,N,00832.5020,E,1,09,0.8,410.2,M,48.0,M,,"),
            s("GPGGA,000001.00,4722.6140,N,00832.5020,E,1,09,0.8,410.2,M,48.0,M,,"),
        ])
        #expect(fixes.map { $0.time.iso8601() } == ["1970-01-01T23:59:59.000Z", "1970-01-02T00:00:00.000Z",
                                                     "1970-01-02T00:00:01.000Z"])
        #expect(fixes.allSatisfy { !$0.dateKnown })
    }

    @Test("after a date, GGA-only epochs cross midnight into the next date")
    func midnightAfterDate() {
        let (fixes, _) = NMEATest.decode([
            s("GPRMC,235959.00,A,4722.6140,N,00832.5020,E,0.0,,311226,,,A"),
            s("GPGGA,000000.00,4722.6140,N,00832.5020,E,1,09,0.8,410.2,M,48.0,M,,"),
        ])
        #expect(fixes.map { $0.time.iso8601() } == ["2026-12-31T23:59:59.000Z", "2027-01-01T00:00:00.000Z"])
    }

    @Test("epochs before the first date are dated when it arrives, even across midnight")
    func heldUntilDated() {
        let (fixes, _) = NMEATest.decode([
            s("GPGGA,235958.00,4722.6140,N,00832.5020,E,1,09,0.8,410.2,M,48.0,M,,"),
            s("GPGGA,235959.00,4722.6140,N,00832.5020,E,1,09,0.8,410.2,M,48.0,M,,"),
            s("GPZDA,000000.00,01,01,2027,00,00"),
            s("GPGGA,000000.00,4722.6140,N,00832.5020,E,1,09,0.8,410.2,M,48.0,M,,"),
        ])
        #expect(fixes.map { $0.time.iso8601() } == ["2026-12-31T23:59:58.000Z", "2026-12-31T23:59:59.000Z",
                                                     "2027-01-01T00:00:00.000Z"])
        #expect(fixes.allSatisfy { $0.dateKnown })
    }

    @Test("GSA sets the mode; RMC with status V means no fix")
    func modes() {
        let (fixes, _) = NMEATest.decode([
            s("GPGGA,120000,5130.0000,N,00007.5000,W,1,05,1.0,20.0,M,47.0,M,,"),
            s("GPRMC,120000,A,5130.0000,N,00007.5000,W,1.0,90.0,010125,,,A"),
            s("GPGSA,A,2,01,02,03,,,,,,,,,,1.6,0.8,1.4"),
            s("GPGGA,120001,5130.0000,N,00007.5000,W,1,02,1.0,20.0,M,47.0,M,,"),
            s("GPRMC,120001,V,5130.0000,N,00007.5000,W,,,010125,,,N"),
            s("GPGGA,120002,5130.0000,N,00007.5000,W,1,05,1.0,,M,47.0,M,,"),
        ])
        #expect(fixes.map(\.mode) == [.threeD, .noFix, .twoD])
        #expect(fixes.map(\.hasPosition) == [true, false, true])
    }

    @Test("VTG without a true course carries nothing (gpsd ignores it too)")
    func vtgWithoutCourse() throws {
        let (fixes, _) = NMEATest.decode([
            s("GPGGA,120000,5130.0000,N,00007.5000,W,1,05,1.0,20.0,M,47.0,M,,"),
            s("GPVTG,,T,,M,0.048,N,0.089,K,D"),
        ])
        #expect(try #require(fixes.first).speedMetresPerSecond == nil)
    }

    @Test("with no hold, undated epochs come out at once (live use)")
    func noHold() {
        var decoder = NMEADecoder(datelessHoldLimit: 0)
        let first = decoder.feed(line: Substring(s("GPGGA,120000,5130.0000,N,00007.5000,W,1,05,1.0,20.0,M,47.0,M,,")))
        let second = decoder.feed(line: Substring(s("GPGGA,120001,5130.0000,N,00007.5000,W,1,05,1.0,20.0,M,47.0,M,,")))
        #expect(first.fixes.isEmpty)
        #expect(second.fixes.map { $0.time.iso8601() } == ["1970-01-01T12:00:00.000Z"])
        #expect(second.fix?.dateKnown == false)
    }

    @Test("decimal fields convert exactly as strtod does", arguments: [1, 2, 3] as [UInt64])
    func decimals(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<2000 {
            let whole = Int.random(in: 0...99_999, using: &rng)
            let digits = Int.random(in: 0...9, using: &rng)
            let fraction = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
            let text = digits > 0 ? "\(whole).\(fraction)" : "\(whole)"
            let bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeBufferPointer { NMEAField.decimal($0) }
            #expect(parsed == Double(text), "\(text)")
        }
    }
}
