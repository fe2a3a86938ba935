import Testing
@testable import RunWalkCore

/// Random and mutated input: the decoder must not crash or hang, and every fix it produces
/// must be inside the valid ranges, however broken the input.
@Suite("NMEA decoder under random and mutated input")
struct NMEAFuzzTests {
    static let templates = [
        "GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        "GNRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,A",
        "GPGLL,4916.45,N,12311.12,W,225444,A,A",
        "GNGNS,224749.00,3333.4268304,N,11153.3538273,W,DA,19,0.6,406.110,-26.294,6.0,0138,S",
        "GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A",
        "GNGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1,1",
        "GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031",
        "GLGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45",
        "GPZDA,160012.71,11,03,2004,-1,00",
        "GPGBS,082941.00,2.4,1.5,3.9,25,,-43.7,27.5",
        "PGRMZ,246,f,3",
    ]
    static let nastyFields = ["", "-", ".", "-0", "999999999999999999999999.9", "-4807.038", "1e308", "9000.0",
                              "18100.000", "59.99999", "235960", "246060", "000000", "311299", "320100", "N", "S",
                              "W", "E", "A", "V", "2200", "1899", "99", "-99.9", "0.0000000000000000000001"]

    static func mutate(_ body: String, _ rng: inout SeededGenerator) -> String {
        var fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let i = Int.random(in: 1..<max(2, fields.count), using: &rng)
            guard i < fields.count else { continue }
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: fields[i] = nastyFields.randomElement(using: &rng) ?? ""
            case 1: fields.remove(at: i)
            case 2: fields.insert(nastyFields.randomElement(using: &rng) ?? "", at: i)
            case 3: fields[i] = String((0..<Int.random(in: 0...12, using: &rng)).map { _ in
                "0123456789.-".randomElement(using: &rng) ?? "0"
            })
            case 4: fields = Array(fields.prefix(i))
            default: fields[i] = String(fields[i].reversed())
            }
        }
        return fields.joined(separator: ",")
    }

    static func line(_ rng: inout SeededGenerator) -> [UInt8] {
        let template = templates.randomElement(using: &rng) ?? templates[0]
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: // random bytes
            return (0..<Int.random(in: 0...120, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        case 1: // a valid sentence with bytes flipped (checksum left as it was)
            var bytes = Array(NMEATest.sentence(template).utf8)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            return bytes
        case 2: // two sentences run together
            let other = templates.randomElement(using: &rng) ?? templates[0]
            let a = Array(NMEATest.sentence(template).utf8)
            return Array(a.prefix(Int.random(in: 0...a.count, using: &rng))) + Array(NMEATest.sentence(other).utf8)
        case 3: // valid as it is
            return Array(NMEATest.sentence(template).utf8)
        default: // fields mutated, checksum recomputed so the decoder must cope with the values
            return Array(NMEATest.sentence(mutate(template, &rng)).utf8)
        }
    }

    static func problems(_ fix: Fix) -> [String] {
        var out: [String] = []
        if let v = fix.latitude, !(v.isFinite && abs(v) <= 90) { out.append("latitude \(v)") }
        if let v = fix.longitude, !(v.isFinite && abs(v) <= 180) { out.append("longitude \(v)") }
        if let v = fix.speedMetresPerSecond, !(v.isFinite && v >= 0) { out.append("speed \(v)") }
        if let v = fix.courseDegrees, !(v.isFinite && v >= 0 && v <= 360) { out.append("course \(v)") }
        if let v = fix.altitudeMSL, !v.isFinite { out.append("altitude \(v)") }
        for v in [fix.hdop, fix.vdop, fix.pdop].compactMap({ $0 }) where !(v.isFinite && v >= 0) { out.append("DOP \(v)") }
        let year = fix.time.civilDate.year
        if fix.time.milliseconds < 0 || year > 9999 { out.append("time \(fix.time.milliseconds)") }
        if (fix.latitude == nil) != (fix.longitude == nil) { out.append("half a position") }
        return out
    }

    @Test("no crash, no hang, no fix outside the valid ranges", .timeLimit(.minutes(1)),
          arguments: [11, 22, 33, 44] as [UInt64])
    func fuzz(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var stream: [UInt8] = []
        for _ in 0..<8000 {
            stream += Self.line(&rng)
            stream += Bool.random(using: &rng) ? [0x0D, 0x0A] : [0x0A]
        }
        var framer = NMEALineFramer(maximumLineLength: 200)
        var decoder = NMEADecoder()
        var fixes = 0
        var bad: [String] = []
        func check(_ fix: Fix) {
            fixes += 1
            let found = Self.problems(fix)
            if !found.isEmpty, bad.count < 5 { bad.append("\(fix): \(found)") }
        }
        var start = 0
        stream.withUnsafeBufferPointer { all in
            while start < all.count {
                let end = min(all.count, start + Int.random(in: 1...4096, using: &rng))
                framer.feed(UnsafeBufferPointer(rebasing: all[start..<end])) { line, _ in _ = decoder.feed(line: line, check) }
                start = end
            }
        }
        framer.finish { line, _ in _ = decoder.feed(line: line, check) }
        decoder.finish(check)
        #expect(bad.isEmpty, "\(bad)")
        let stats = decoder.statistics
        #expect(stats.lines >= 7000, "every line reached the decoder")
        #expect(stats.linesBad > 0 && stats.sentences > 0 && fixes > 0, "the input mixes good and bad: \(stats)")
        #expect(stats.epochs == fixes)
    }
}
