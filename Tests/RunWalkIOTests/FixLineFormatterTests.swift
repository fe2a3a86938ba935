import Foundation
import Testing
import RunWalkCore
@testable import RunWalkIO

/// The fast formatter prints exactly what `FixFormat` (String(format:) based) prints.
@Suite("FixLineFormatter")
struct FixLineFormatterTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Formats through a real file descriptor and reads the bytes back.
    static func formatted(_ fixes: [Fix], csv: Bool) throws -> String {
        let path = NSTemporaryDirectory() + "rw-fixformat-\(UUID().uuidString)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        defer { close(fd); unlink(path) }
        var out = OutputStreamWriter(fd: fd, destination: path, capacity: 4096) // small: many flushes
        for fix in fixes {
            if csv { try FixLineFormatter.writeCSV(fix, to: &out) } else { try FixLineFormatter.writeJSON(fix, to: &out) }
        }
        try out.flush()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static func reference(_ fixes: [Fix], csv: Bool) -> String {
        fixes.map { (csv ? FixFormat.csvLine($0) : FixFormat.jsonLine($0)) + "\n" }.joined()
    }

    static func logs() -> [String] {
        var paths: [String] = []
        // The repository's gpsd logs always; the project's whole set beside it where present.
        for (folder, suffix) in [("SampleTracks", ".nmea"), ("Tests/Fixtures/gpsd-logs", ".log"), ("../shared/data/gpsd-logs", ".log")] {
            let dir = root.appendingPathComponent(folder).standardizedFileURL.path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            paths += names.filter { $0.hasSuffix(suffix) }.sorted().map { dir + "/" + $0 }
        }
        return paths
    }

    @Test("every sample track and gpsd log prints byte for byte as before, JSON and CSV")
    func logsIdentical() throws {
        let logs = Self.logs()
        #expect(logs.count >= 6 + 13, "the sample tracks and the repository's gpsd logs are in the tree")
        var total = 0
        for path in logs {
            var reader = NMEAFileReader(path: path)
            var fixes: [Fix] = []
            try reader.read { fixes.append($0) }
            total += fixes.count
            for csv in [false, true] {
                #expect(try Self.formatted(fixes, csv: csv) == Self.reference(fixes, csv: csv), "\(path) csv=\(csv)")
            }
        }
        #expect(total > 1000)
    }

    @Test("numbers round exactly as printf's %.Nf, ties to even, -0 as 0", arguments: [1, 2, 3] as [UInt64])
    func numbers(seed: UInt64) throws {
        var generator = Seeded(seed: seed)
        var values: [Double] = [0, -0.0, 0.5, 1.5, 2.5, 0.125, 0.375, -0.125, 1e-320, -1e-9, 0.0049999, 0.005, 123456789.987654321,
                                999_999_999.9999, 47.123456789012, -122.000000000499, 1e9, -2e12, .pi]
        for _ in 0..<20_000 {
            let magnitude = pow(10, Double.random(in: -12...9, using: &generator))
            var v = Double.random(in: 0..<1, using: &generator) * magnitude
            if Bool.random(using: &generator) { v = -v }
            // Exact binary fractions hit the ties.
            if Int.random(in: 0..<4, using: &generator) == 0 { v = Double(Int.random(in: -100_000...100_000, using: &generator)) / 1024 }
            values.append(v)
        }
        for value in values {
            for digits in [2, 3, 4, 9] {
                var bytes = [UInt8](repeating: 0, count: 64)
                let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int in
                    guard let base = buffer.baseAddress else { return 0 }
                    var p = base
                    FixLineFormatter.number(value, digits, &p)
                    return base.distance(to: p)
                }
                let ours = String(decoding: bytes[0..<written], as: UTF8.self)
                #expect(ours == FixFormat.number(value, digits), "\(value) to \(digits) digits")
            }
        }
    }
}

/// SplitMix64, so the random values are the same on every run.
struct Seeded: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
