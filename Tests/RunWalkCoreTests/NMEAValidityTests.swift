import Testing
@testable import RunWalkCore

/// The receiver's own "no valid fix" flags: whatever position such an epoch prints, it carries
/// none (mode 1, as gpsd reports it), and the epochs around it keep theirs.
@Suite("NMEADecoder: invalid fixes")
struct NMEAValidityTests {
    func s(_ body: String) -> String { NMEATest.sentence(body) }

    static let valid = [
        "GPRMC,120000,A,5130.0000,N,00007.5000,W,1.0,90.0,010125,,,A",
        "GPGGA,120000,5130.0000,N,00007.5000,W,1,08,1.0,20.0,M,47.0,M,,",
    ]

    /// One valid epoch at 12:00:00, then `second` (sentences of 12:00:01), then a valid 12:00:02.
    func decode(_ second: [String]) -> [Fix] {
        let after = ["GPGGA,120002,5130.0000,N,00007.5000,W,1,08,1.0,20.0,M,47.0,M,,"]
        return NMEATest.decode((Self.valid + second + after).map(s)).fixes
    }

    @Test("each invalid flag makes its epoch carry no position, in either sentence order", arguments: [
        ["GPRMC,120001,V,5130.0010,N,00007.5010,W,1.0,90.0,010125,,,N",
         "GPGGA,120001,5130.0010,N,00007.5010,W,1,08,1.0,20.0,M,47.0,M,,"],
        ["GPGGA,120001,5130.0010,N,00007.5010,W,1,08,1.0,20.0,M,47.0,M,,",
         "GPRMC,120001,V,5130.0010,N,00007.5010,W,1.0,90.0,010125,,,N"],
        ["GPRMC,120001,A,5130.0010,N,00007.5010,W,1.0,90.0,010125,,,N",
         "GPGGA,120001,5130.0010,N,00007.5010,W,1,08,1.0,20.0,M,47.0,M,,"],
        ["GPGGA,120001,5130.0010,N,00007.5010,W,0,08,1.0,20.0,M,47.0,M,,"],
        ["GPRMC,120001,A,5130.0010,N,00007.5010,W,1.0,90.0,010125,,,A",
         "GPGGA,120001,5130.0010,N,00007.5010,W,0,08,1.0,20.0,M,47.0,M,,"],
        ["GNGNS,120001,5130.0010,N,00007.5010,W,NN,08,1.0,20.0,47.0,,,V"],
        ["GPGLL,5130.0010,N,00007.5010,W,120001,V,N"],
        ["GPGLL,5130.0010,N,00007.5010,W,120001,A,N"],
        ["GPGGA,120001,5130.0010,N,00007.5010,W,1,08,1.0,20.0,M,47.0,M,,",
         "GPGLL,5130.0010,N,00007.5010,W,120001,V,N"],
    ])
    func invalidEpoch(second: [String]) throws {
        let fixes = decode(second)
        #expect(fixes.map { $0.time.millisecondOfDay } == [43_200_000, 43_201_000, 43_202_000], "\(second)")
        #expect(fixes.map(\.mode) == [.threeD, .noFix, .threeD], "\(second)")
        #expect(fixes.map(\.hasPosition) == [true, false, true], "\(second)")
        #expect(fixes[1].latitude == nil && fixes[1].longitude == nil, "no position is reported for \(second)")
    }

    @Test("GNS with one valid constellation is a fix; with none it is not")
    func gnsModes() throws {
        let fixes = decode(["GNGNS,120001,5130.0010,N,00007.5010,W,NA,08,1.0,20.0,47.0,,,S"])
        #expect(fixes.map(\.mode) == [.threeD, .threeD, .threeD])
        #expect(fixes.allSatisfy { $0.hasPosition })
    }

    @Test("an RMC-only receiver without a fix (status V, position printed) yields no position")
    func rmcOnly() {
        let (fixes, stats) = NMEATest.decode([
            s("GPRMC,205150.00,V,4405.556,N,12118.398,W,000.0,000.0,090605,0.0,E,N"),
            s("GPRMC,205152.00,V,4405.556,N,12118.398,W,000.0,000.0,090605,0.0,E,N"),
            s("GPRMC,205154.00,A,4405.556,N,12118.398,W,000.0,000.0,090605,0.0,E,A"),
            s("GPRMC,205156.00,V,4405.556,N,12118.398,W,000.0,000.0,090605,0.0,E,N"),
        ])
        #expect(fixes.filter(\.hasPosition).map { $0.time.iso8601() } == ["2005-06-09T20:51:54.000Z"])
        #expect(fixes.allSatisfy { $0.hasPosition || $0.latitude == nil })
        #expect(stats.linesBad == 0)
    }

    @Test("the u-blox order without a fix: RMC V before the GGA of its time, then a fix again")
    func ubloxOrder() {
        let (fixes, stats) = NMEATest.decode([
            s("GPRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A"),
            s("GPGGA,083559.00,4717.11437,N,00833.91522,E,1,08,1.01,499.6,M,48.0,M,,"),
            s("GPGLL,4717.11437,N,00833.91522,E,083559.00,A,A"),
            s("GPRMC,083600.00,V,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,N"),
            s("GPVTG,,,,,,,,,N"),
            s("GPGGA,083600.00,4717.11437,N,00833.91522,E,1,08,1.01,499.6,M,48.0,M,,"),
            s("GPGLL,4717.11437,N,00833.91522,E,083600.00,A,A"),
            s("GPRMC,083601.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A"),
            s("GPGGA,083601.00,4717.11437,N,00833.91522,E,1,08,1.01,499.6,M,48.0,M,,"),
        ])
        #expect(fixes.map(\.hasPosition) == [true, false, true])
        #expect(stats.epochsInvalid == 1)
    }
}
