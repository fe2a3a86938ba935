import Testing
@testable import RunWalkCore

/// Logs whose only date is ZDA's (GGA, GNS or GLL with ZDA, no RMC): every epoch is dated.
@Suite("NMEADecoder: dates from ZDA")
struct NMEADateTests {
    func s(_ body: String) -> String { NMEATest.sentence(body) }

    static func position(_ type: String, _ time: String) -> String {
        switch type {
        case "GGA": return "GPGGA,\(time),4722.6140,N,00832.5020,E,1,09,0.8,410.2,M,48.0,M,,"
        case "GNS": return "GNGNS,\(time),4722.6140,N,00832.5020,E,AA,09,0.8,410.2,48.0,,,S"
        default: return "GPGLL,4722.6140,N,00832.5020,E,\(time),A,A"
        }
    }

    @Test("ZDA after or before the position sentence dates every epoch", arguments: ["GGA", "GNS", "GLL"], [true, false])
    func zdaDates(type: String, zdaFirst: Bool) throws {
        var lines: [String] = []
        for second in 0..<5 {
            let time = "0930\(second < 10 ? "0" : "")\(second).00"
            let zda = "GPZDA,\(time),25,11,2026,00,00"
            let fix = Self.position(type, time)
            lines += zdaFirst ? [zda, fix] : [fix, zda]
        }
        let (fixes, _) = NMEATest.decode(lines.map(s))
        #expect(fixes.map { $0.time.iso8601() } == (0..<5).map { "2026-11-25T09:30:0\($0).000Z" })
        #expect(fixes.allSatisfy { $0.dateKnown }, "dateKnown flows from ZDA")
        #expect(fixes.allSatisfy { $0.hasPosition })
    }

    @Test("ZDA only once a minute: the epochs before it are dated when it comes")
    func rareZDA() throws {
        var lines: [String] = []
        for second in 0..<30 {
            let time = "0930\(second < 10 ? "0" : "")\(second).00"
            lines.append(Self.position("GGA", time))
            if second == 20 { lines.append("GPZDA,\(time),25,11,2026,00,00") }
        }
        let (fixes, _) = NMEATest.decode(lines.map(s))
        #expect(fixes.count == 30)
        #expect(fixes.first?.time.iso8601() == "2026-11-25T09:30:00.000Z")
        #expect(fixes.allSatisfy { $0.dateKnown })
    }

    @Test("a date 1024 weeks back within a log (GPS week rollover) is moved forward")
    func weekRollover() throws {
        let (fixes, _) = NMEATest.decode([
            s("GPRMC,235958,A,4722.6140,N,00832.5020,E,0.0,,060419,,,A"),
            s("GPRMC,235959,A,4722.6140,N,00832.5020,E,0.0,,060419,,,A"),
            // The receiver's week counter wrapped: 2019-04-07 reads as 1999-08-22.
            s("GPRMC,000000,A,4722.6140,N,00832.5020,E,0.0,,220899,,,A"),
            s("GPRMC,000001,A,4722.6140,N,00832.5020,E,0.0,,220899,,,A"),
        ])
        #expect(fixes.map { $0.time.iso8601() } == ["2019-04-06T23:59:58.000Z", "2019-04-06T23:59:59.000Z",
                                                     "2019-04-07T00:00:00.000Z", "2019-04-07T00:00:01.000Z"])
    }
}
