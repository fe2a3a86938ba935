import Testing
@testable import RunWalkCore

/// A u-blox receiver sending UBX binary packets and NMEA on one port, with the junk real logs
/// carry (`$$`, NUL padding, AIS `!` sentences, CR-only and LF-only endings, binary runs far
/// longer than a line): every NMEA epoch comes out, whatever the read sizes.
@Suite("NMEA in a mixed UBX + NMEA stream")
struct NMEAMixedStreamTests {
    /// A UBX frame: sync 0xB5 0x62, class, id, little-endian length, payload, 8-bit Fletcher
    /// checksum over class…payload.
    static func ubx(class messageClass: UInt8, id: UInt8, payload: [UInt8]) -> [UInt8] {
        let body = [messageClass, id, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
        var a: UInt8 = 0, b: UInt8 = 0
        for byte in body {
            a &+= byte
            b &+= a
        }
        return [0xB5, 0x62] + body + [a, b]
    }

    static func minutes(_ k: Int) -> String {
        let scaled = 300_000 + k * 7
        let fraction = String(scaled % 10_000)
        return "\(scaled / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }

    /// The stream and the number of NMEA epochs in it.
    static func stream(seed: UInt64, epochs: Int) -> [UInt8] {
        var rng = SeededGenerator(seed: seed)
        func random(_ count: Int, avoiding: Set<UInt8> = []) -> [UInt8] {
            (0..<count).map { _ in
                var byte = UInt8.random(in: 0...255, using: &rng)
                while avoiding.contains(byte) { byte = UInt8.random(in: 0...255, using: &rng) }
                return byte
            }
        }
        var bytes: [UInt8] = []
        for k in 0..<epochs {
            let time = "12\(k / 60 < 10 ? "0" : "")\(k / 60)\(k % 60 < 10 ? "0" : "")\(k % 60).00"
            // NAV-PVT's size; its random payload holds CR, LF, '$', '!' and NUL bytes now and then.
            bytes += ubx(class: 0x01, id: 0x07, payload: random(92))
            if k % 7 == 3 {
                // RXM-RAWX-sized binary with no line break at all: longer than any line kept.
                bytes += ubx(class: 0x02, id: 0x15, payload: random(6000, avoiding: [0x0A, 0x0D]))
            }
            let rmc = NMEATest.sentence("GNRMC,\(time),A,51\(minutes(k)),N,00007.5000,W,3.0,90.0,251126,,,A")
            let gga = NMEATest.sentence("GNGGA,\(time),51\(minutes(k)),N,00007.5000,W,1,08,0.9,20.0,M,47.0,M,,")
            let endings: [[UInt8]] = [[0x0D, 0x0A], [0x0A], [0x0D]]
            let prefix: [UInt8] = switch k % 5 {
            case 1: Array("$".utf8)          // $$GNRMC
            case 2: [0, 0, 0]                // NUL padding
            default: []
            }
            bytes += prefix + Array(rmc.utf8) + endings[k % 3]
            if k % 4 == 0 {
                bytes += Array(NMEATest.sentence("AIVDM,1,1,,A,15MgK45P3@G?fl0E`JbR0OwT0@MS,0", start: "!").utf8) + [0x0D, 0x0A]
            }
            bytes += ubx(class: 0x01, id: 0x35, payload: random(40))
            bytes += Array(gga.utf8) + endings[(k + 1) % 3]
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8], chunks rng: inout SeededGenerator) -> ([Fix], NMEADecoder.Statistics) {
        var framer = NMEALineFramer()
        var decoder = NMEADecoder()
        var fixes: [Fix] = []
        func handle(_ line: UnsafeBufferPointer<UInt8>, _ truncated: Bool) {
            if truncated {
                decoder.skip(lineWith: .tooLong)
            } else {
                _ = decoder.feed(line: line) { fixes.append($0) }
            }
        }
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + Int.random(in: 1...9000, using: &rng))
                framer.feed(UnsafeBufferPointer(rebasing: all[start..<end]), handle)
                start = end
            }
        }
        framer.finish(handle)
        decoder.countJunk(bytes: framer.junkBytes)
        decoder.finish { fixes.append($0) }
        return (fixes, decoder.statistics)
    }

    @Test("every NMEA epoch comes out, with its position, in any chunking", arguments: [1, 2, 3, 4] as [UInt64])
    func everyEpoch(seed: UInt64) throws {
        let epochs = 90
        let bytes = Self.stream(seed: seed, epochs: epochs)
        var chunks = SeededGenerator(seed: seed &+ 100)
        var first: [Fix]?
        for _ in 0..<4 {
            let (fixes, stats) = Self.decode(bytes, chunks: &chunks)
            #expect(fixes.count == epochs)
            for (k, fix) in fixes.enumerated() {
                #expect(fix.time.iso8601() == "2026-11-25T12:\(k / 60 < 10 ? "0" : "")\(k / 60):"
                        + "\(k % 60 < 10 ? "0" : "")\(k % 60).000Z")
                #expect(abs((fix.latitude ?? 0) - (51 + Double(300_000 + k * 7) / 10_000 / 60)) < 1e-9)
                #expect(fix.mode == .threeD)
            }
            #expect(stats.sentences == 2 * epochs + (epochs + 3) / 4, "every RMC, GGA and AIS sentence is found")
            #expect(stats.skipped == (epochs + 3) / 4, "AIS sentences are skipped, not bad")
            #expect(stats.junkBytes > 0, "binary bytes are counted")
            #expect(stats.linesBad > 0, "binary-only lines are counted")
            if let first { #expect(fixes == first, "chunking changes nothing") } else { first = fixes }
        }
    }
}
