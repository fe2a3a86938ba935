#if canImport(Glibc)
import Glibc
#endif
@testable import RunWalkCore

/// Helpers for the NMEA tests: checksummed sentences, a seeded generator, decoding a log.
enum NMEATest {
    /// `$` + body + `*` + checksum.
    static func sentence(_ body: String) -> String { sentence(body, start: "$") }

    /// `start` + body + `*` + checksum.
    static func sentence(_ body: String, start: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        let hex = String(sum, radix: 16, uppercase: true)
        return start + body + "*" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// Decodes lines in order and returns every fix (the last ones from `finish`).
    static func decode(_ lines: [String], decoder: inout NMEADecoder) -> [Fix] {
        var fixes: [Fix] = []
        for line in lines { fixes += decoder.feed(line: Substring(line)).fixes }
        fixes += decoder.finish()
        return fixes
    }

    static func decode(_ lines: [String]) -> (fixes: [Fix], statistics: NMEADecoder.Statistics) {
        var decoder = NMEADecoder()
        let fixes = decode(lines, decoder: &decoder)
        return (fixes, decoder.statistics)
    }
}

/// SplitMix64: small, fast and seeded, so every run of a randomised test is the same.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-300), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
