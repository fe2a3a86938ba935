import Testing
@testable import RunWalkCore

/// Where one epoch ends and the next begins, and what each carries: the date that arrives in
/// the middle of an epoch already reported, a time-less "no fix" sentence after an epoch, two
/// epochs 10 ms apart, a mode-1 fix, comment lines (issue 30, items 2–5).
@Suite("NMEADecoder: epoch boundaries")
struct NMEAEpochBoundaryTests {
    func s(_ body: String) -> String { NMEATest.sentence(body) }

    @Test("a date arriving after GLL reported its epoch dates that epoch, and times run forward")
    func dateAfterGLL() throws {
        // The smallest case of beidou-bd, beidou-gb, myguide-3100: GLL ends the epoch (it
        // learns so at the second time), RMC brings the date afterwards.
        let lines = [
            "$GPGLL,4000.0000,N,00300.0000,W,120000.00,A,A*7F",
            "$GPGLL,4000.0010,N,00300.0010,W,120001.00,A,A*7E",
            "$GPRMC,120001.00,A,4000.0010,N,00300.0010,W,0.5,45.0,050522,,,A*7D",
        ]
        for hold in [NMEADecoder.defaultDatelessHoldLimit, 0] {
            var decoder = NMEADecoder(datelessHoldLimit: hold)
            let fixes = NMEATest.decode(lines, decoder: &decoder)
            let dated = fixes.filter(\.dateKnown)
            #expect(dated.last?.time.iso8601() == "2022-05-05T12:00:01.000Z", "hold \(hold)")
            #expect(dated.allSatisfy { $0.time.iso8601().hasPrefix("2022-05-05") }, "hold \(hold): \(fixes.map { $0.time.iso8601() })")
            #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.time < $1.time }, "hold \(hold): in order")
            if hold > 0 {
                #expect(fixes.map { $0.time.iso8601() } == ["2022-05-05T12:00:00.000Z", "2022-05-05T12:00:01.000Z"])
            }
        }
    }

    @Test("live (short hold, no reordering): the first fix waits for the RMC after its GLL, later ones do not wait")
    func liveDateAfterGLL() throws {
        var decoder = NMEADecoder(datelessHoldLimit: NMEADecoder.liveDatelessHoldLimit, reorderDepth: 0)
        var out: [[String]] = []
        for second in 0..<4 {
            let time = "12000\(second).00"
            // The first epoch has no RMC (the smallest case of the issue).
            for line in [s("GPGLL,4000.0000,N,00300.0000,W,\(time),A,A"),
                         s("GPRMC,\(time),A,4000.0000,N,00300.0000,W,0.5,45.0,050522,,,A")].prefix(second == 0 ? 1 : 2) {
                out.append(decoder.feed(line: Substring(line)).fixes.map { $0.time.iso8601() })
            }
        }
        let all = out.flatMap { $0 } + decoder.finish().map { $0.time.iso8601() }
        #expect(all == (0..<4).map { "2022-05-05T12:00:0\($0).000Z" })
        // The GLL of 12:00:03 closes 12:00:02 and hands it out at once.
        #expect(out[5] == ["2022-05-05T12:00:02.000Z"])
    }

    @Test("a date arriving after the cycle ender, every epoch: each fix has its own date and time")
    func lateDateEveryEpoch() throws {
        var lines: [String] = []
        for second in 0..<10 {
            let time = "23595\(second).00"
            lines.append(s("GPGLL,4000.0000,N,00300.0000,W,\(time),A,A"))
            lines.append(s("GPRMC,\(time),A,4000.0000,N,00300.0000,W,0.5,45.0,311222,,,A"))
        }
        lines.append(s("GPGLL,4000.0000,N,00300.0000,W,000000.00,A,A"))
        lines.append(s("GPRMC,000000.00,A,4000.0000,N,00300.0000,W,0.5,45.0,010123,,,A"))
        let fixes = NMEATest.decode(lines).fixes
        #expect(fixes.count == 11)
        #expect(fixes.allSatisfy { $0.dateKnown })
        #expect(fixes.first?.time.iso8601() == "2022-12-31T23:59:50.000Z")
        #expect(fixes.last?.time.iso8601() == "2023-01-01T00:00:00.000Z")
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $1.time.milliseconds - $0.time.milliseconds == 1000 })
    }

    @Test("a time-less RMC,V (Quectel) after an epoch leaves that epoch's position")
    func timelessInvalidRMC() throws {
        let fixes = NMEATest.decode([
            "$GNGGA,073000.00,5530.0000,N,03730.0000,E,1,08,0.8,150.0,M,14.0,M,,*73",
            "$GNRMC,073000.00,A,5530.0000,N,03730.0000,E,1.2,90.0,020422,,,A*7C",
            "$GNGGA,073001.00,5530.0000,N,03730.0010,E,1,08,0.8,150.0,M,14.0,M,,*73",
            "$GNRMC,073001.00,A,5530.0000,N,03730.0010,E,1.2,90.0,020422,,,A*7C",
            "$GNRMC,,V,,,,,,,,,,N*4D",
        ]).fixes
        let last = try #require(fixes.last)
        #expect(fixes.count == 2)
        #expect(last.time.iso8601() == "2022-04-02T07:30:01.000Z")
        #expect(last.mode == .threeD)
        #expect(abs((last.latitude ?? 0) - 55.5) < 1e-9)
        #expect(abs((last.longitude ?? 0) - 37.500016667) < 1e-9)
    }

    @Test("a time-less GGA with quality 0 (Quectel) after an epoch leaves that epoch's position")
    func timelessInvalidGGA() throws {
        // One epoch: no cycle ender is known yet, so nothing but the epoch itself holds it.
        let fixes = NMEATest.decode([
            s("GNGGA,073000.00,5530.0000,N,03730.0000,E,1,08,0.8,150.0,M,14.0,M,,"),
            s("GNRMC,073000.00,A,5530.0000,N,03730.0000,E,1.2,90.0,020422,,,A"),
            s("GPGGA,,,,,,0,,,,,,,,"),
        ]).fixes
        #expect(fixes.map(\.mode) == [.threeD])
        #expect(fixes.map(\.hasPosition) == [true])
    }

    @Test("two fixes 10 ms apart are two fixes (gpsd: a new cycle needs more than 10 ms, but reports both)")
    func tenMillisecondsApart() throws {
        let fixes = NMEATest.decode([
            "$GPRMC,080001.000,A,5130.0000,N,00009.9960,W,4.0,90.0,010621,,,A*44",
            "$GPGGA,080001.000,5130.0000,N,00009.9960,W,1,06,1.2,50.0,M,47.0,M,,*7C",
            "$GPRMC,080001.990,A,5130.0000,N,00009.9920,W,4.0,90.0,010621,,,A*40",
            "$GPGGA,080001.990,5130.0000,N,00009.9920,W,1,06,1.2,50.0,M,47.0,M,,*78",
            "$GPRMC,080002.000,A,5130.0000,N,00009.9910,W,3.0,90.0,010621,,,A*47",
            "$GPGGA,080002.000,5130.0000,N,00009.9910,W,1,06,1.2,50.0,M,47.0,M,,*78",
        ]).fixes
        #expect(fixes.map { $0.time.iso8601() } == ["2021-06-01T08:00:01.000Z", "2021-06-01T08:00:01.990Z",
                                                     "2021-06-01T08:00:02.000Z"])
        #expect(fixes.count == 3)
        if fixes.count == 3 {
            #expect(abs((fixes[1].longitude ?? 0) + 0.166533333) < 1e-9)
            #expect(abs((fixes[2].longitude ?? 0) + 0.166516667) < 1e-9)
            #expect(fixes[2].speedMetresPerSecond == 3.0 * NMEADecoder.metresPerSecondPerKnot)
        }
    }

    @Test("sentences of one epoch a few ms apart still make one fix")
    func jitterWithinEpoch() throws {
        let fixes = NMEATest.decode([
            s("GPGGA,080001.000,5130.0000,N,00009.9960,W,1,06,1.2,50.0,M,47.0,M,,"),
            s("GPRMC,080001.005,A,5130.0000,N,00009.9960,W,4.0,90.0,010621,,,A"),
            s("GPGGA,080002.000,5130.0000,N,00009.9920,W,1,06,1.2,50.0,M,47.0,M,,"),
            s("GPRMC,080002.005,A,5130.0000,N,00009.9920,W,4.0,90.0,010621,,,A"),
        ]).fixes
        #expect(fixes.count == 2)
    }

    @Test("a mode-1 fix carries no position (GGA quality 1 with 00 satellites, as gpsd)")
    func modeOneHasNoPosition() throws {
        let fixes = NMEATest.decode([
            s("GPGGA,120000,5130.0000,N,00007.5000,W,1,00,1.0,20.0,M,47.0,M,,"),
            s("GPGGA,120001,5130.0000,N,00007.5000,W,1,08,1.0,20.0,M,47.0,M,,"),
        ]).fixes
        #expect(fixes.map(\.mode) == [.noFix, .threeD])
        #expect(fixes[0].latitude == nil && fixes[0].longitude == nil && fixes[0].altitudeMSL == nil)
        #expect(fixes[1].hasPosition)
    }

    @Test("a line starting with # is a comment, even with a $ in it", arguments: [
        "# $GPGGA,120000,5130.0000,N,00007.5000,W,1,08,1.0,20.0,M,47.0,M,,*4C",
        "# Price: $5",
        "#$",
        "# Björn's log, 5 $ a month",
    ])
    func commentLines(comment: String) throws {
        let (fixes, stats) = NMEATest.decode([
            comment,
            s("GPGGA,120000,5130.0000,N,00007.5000,W,1,08,1.0,20.0,M,47.0,M,,"),
        ])
        #expect(stats.linesBad == 0, "\(comment)")
        #expect(stats.lines == 1, "a comment is not counted as a line")
        #expect(fixes.count == 1)
    }

    @Test("binary bytes that start with # and run into a sentence are not a comment")
    func binaryHashIsNotComment() throws {
        let line = "#\u{01}\u{00}\u{B5}b" + s("GPGGA,120000,5130.0000,N,00007.5000,W,1,08,1.0,20.0,M,47.0,M,,")
        let (fixes, _) = NMEATest.decode([line])
        #expect(fixes.count == 1)
    }
}
