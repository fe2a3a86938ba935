import Foundation
import RunWalkCore
import RunWalkReport
import Testing
@testable import RunWalkTracks

@Suite("FIT decoding")
struct FITDecoderTests {
    /// FIT seconds of the hand-written file's first record (its low five bits are zero, so the
    /// compressed timestamps roll over at +32 s).
    static let start: UInt32 = 1_100_000_000

    static func latitude(_ t: Int) -> Double { 47.37 + 3 * Double(t) / 111_195 }
    static let longitude = 8.54

    /// A small activity: a file_id, three big-endian records with full timestamps and a
    /// developer field, little-endian records with compressed timestamps (across a rollover),
    /// a timer stop and start (a pause of 60 s), and more compressed records.
    /// Without `compressed` (Garmin's Python decoder does not take compressed timestamps),
    /// the little-endian records carry a full timestamp instead.
    static func handWritten(compressed: Bool = true) -> [UInt8] {
        var fit = FITBuilder()
        fit.define(local: 3, global: 0, bigEndian: false, fields: [(0, 1, 0x00), (4, 4, 0x86)])
        fit.data(local: 3, [4, UInt64(start)])
        fit.define(local: 0, global: 20, bigEndian: true,
                   fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (78, 4, 0x86), (73, 4, 0x86)], developer: [(0, 2, 0)])
        for t in 0..<3 {
            fit.data(local: 0, [UInt64(start) + UInt64(t), FITBuilder.semicircles(latitude(t)), FITBuilder.semicircles(longitude),
                                UInt64((400 + 500) * 5 + t), 3000], developer: [0xAB, 0xCD])
        }
        if compressed {
            fit.define(local: 1, global: 20, bigEndian: false, fields: [(0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84), (6, 2, 0x84)])
        } else {
            fit.define(local: 1, global: 20, bigEndian: false, fields: [(0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84), (6, 2, 0x84), (253, 4, 0x86)])
        }
        func record(_ t: Int) {
            let values = [FITBuilder.semicircles(latitude(t)), FITBuilder.semicircles(longitude), UInt64((400 + 500) * 5 + t), 3000]
            if compressed {
                fit.data(local: 1, values, timeOffset: UInt8((start + UInt32(t)) & 0x1F))
            } else {
                fit.data(local: 1, values + [UInt64(start) + UInt64(t)])
            }
        }
        for t in 3...40 { record(t) }
        fit.define(local: 2, global: 21, bigEndian: false, fields: [(253, 4, 0x86), (0, 1, 0x00), (1, 1, 0x00)])
        fit.data(local: 2, [UInt64(start) + 40, 0, 4])   // timer stop all
        fit.data(local: 2, [UInt64(start) + 100, 0, 0])  // timer start
        for t in 101...110 { record(t) }
        return fit.file()
    }

    @Test("a hand-written file: both byte orders, a developer field skipped, compressed timestamps across a rollover, a pause as a segment break")
    func handWrittenFile() throws {
        let read = try TrackFiles.read(Self.handWritten(), name: "hand.fit")
        #expect(read.format == .fit)
        #expect(read.warnings.isEmpty, "\(read.warnings)")
        let seconds = Array(0...40) + Array(101...110)
        try #require(read.fixes.count == seconds.count)
        for (fix, t) in zip(read.fixes, seconds) {
            #expect(fix.time.milliseconds == FITBuilder.unixMilliseconds(Self.start + UInt32(t)), "t = \(t)")
            #expect(abs((fix.latitude ?? 0) - Self.latitude(t)) < 1e-7)
            #expect(abs((fix.longitude ?? 0) - Self.longitude) < 1e-7)
            #expect(abs((fix.altitudeMSL ?? -1) - (400 + Double(t) / 5)) < 1e-9)
            #expect(fix.speedMetresPerSecond == 3)
            #expect(fix.startsSegment == (t == 101), "t = \(t)")
            #expect(fix.hdop == nil)
        }
    }

    @Test("two FIT files chained in one (the second with a 12-byte header) are read in turn, and zero padding after them is ignored")
    func chainedFiles() throws {
        var second = FITBuilder()
        second.define(local: 0, global: 20, bigEndian: false, fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85)])
        for t in 200..<203 {
            second.data(local: 0, [UInt64(Self.start) + UInt64(t), FITBuilder.semicircles(Self.latitude(t)), FITBuilder.semicircles(Self.longitude)])
        }
        let bytes = Self.handWritten() + second.file(headerSize: 12) + [0, 0, 0, 0]
        let read = try TrackFiles.read(bytes, name: "chained.fit")
        #expect(read.fixes.count == 54)
        #expect(read.fixes.last?.time.milliseconds == FITBuilder.unixMilliseconds(Self.start + 202))
        #expect(read.fixes.last?.altitudeMSL == nil)
        #expect(read.fixes.last?.mode == .twoD)
        #expect(read.warnings.isEmpty, "\(read.warnings)")
    }

    @Test("a damaged byte fails the CRC: one line naming the byte offset of the CRC")
    func crcMismatch() throws {
        var bytes = Self.handWritten()
        bytes[40] ^= 0x10
        let error = try #require(throws: TrackFileError.self) { try TrackFiles.read(bytes, name: "bad.fit") }
        #expect(error.place == "byte \(bytes.count - 2)")
        #expect(error.description.contains("CRC"), "\(error)")
    }

    @Test("a truncated file: one line naming where it ends and how much is missing")
    func truncated() throws {
        let bytes = Array(Self.handWritten().dropLast(20))
        let error = try #require(throws: TrackFileError.self) { try TrackFiles.read(bytes, name: "cut.fit") }
        #expect(error.description.hasSuffix("byte \(bytes.count): the header announces \(bytes.count + 20 - 16) bytes of data and a CRC, but the file ends 20 byte(s) short (truncated)"), "\(error)")
    }

    @Test("gzip-compressed FIT under any name is found by its content")
    func gzipByContent() throws {
        let read = try TrackFiles.read(try TrackFiles.gzip(Self.handWritten()), name: "upload.bin")
        #expect(read.format == .fit)
        #expect(read.compressed)
        #expect(read.fixes.count == 51)
    }

    /// Garmin's decoder: every record's timestamp, position, altitude and speed, as JSON.
    static let oracle = """
    import json, sys
    from garmin_fit_sdk import Decoder, Stream
    messages, errors = Decoder(Stream.from_file(sys.argv[1])).read(convert_datetimes_to_dates=False)
    records = []
    for r in messages.get("record_mesgs", []):
        records.append([r.get("timestamp"), r.get("position_lat"), r.get("position_long"),
                        r.get("enhanced_altitude", r.get("altitude")), r.get("enhanced_speed", r.get("speed"))])
    print(json.dumps({"errors": [str(e) for e in errors], "records": records}))
    """

    struct Oracle: Decodable {
        var errors: [String]
        var records: [[Double?]]
    }

    static func decodeWithGarmin(_ bytes: [UInt8]) throws -> Oracle {
        let folder = try TrackFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("oracle.fit")
        try Data(bytes).write(to: file)
        let result = try TrackFiles.run(try #require(TrackFiles.python), ["-c", oracle, file.path])
        try #require(result.status == 0, "python: \(result.stderr)")
        return try JSONDecoder().decode(Oracle.self, from: Data(result.stdout))
    }

    /// Compares our fixes with Garmin's records point by point.
    static func expectSame(_ bytes: [UInt8], name: String) throws {
        let garmin = try decodeWithGarmin(bytes)
        #expect(garmin.errors.isEmpty, "\(garmin.errors)")
        // The decoder's own output, every speed as the file has it (not checked against the positions).
        var pipeline = TrackPointPipeline()
        pipeline.checksSpeed = false
        var ours: [Fix] = []
        try FITDecoder(path: name).decode(bytes, into: &pipeline) { ours.append($0) }
        try pipeline.finish { ours.append($0) }
        let positioned = garmin.records.filter { $0[1] != nil && $0[2] != nil }
        try #require(ours.count == positioned.count, "ours \(ours.count), Garmin's \(positioned.count) records with a position")
        for (fix, record) in zip(ours, positioned) {
            let seconds = try #require(record[0])
            #expect(fix.time.milliseconds == FITBuilder.unixMilliseconds(UInt32(seconds)))
            #expect(abs((fix.latitude ?? 0) - (record[1] ?? 0) * 180 / 2_147_483_648) < 1e-9)
            #expect(abs((fix.longitude ?? 0) - (record[2] ?? 0) * 180 / 2_147_483_648) < 1e-9)
            #expect(fix.altitudeMSL.map { abs($0 - (record[3] ?? .nan)) < 1e-6 } ?? (record[3] == nil))
            #expect(fix.speedMetresPerSecond.map { abs($0 - (record[4] ?? .nan)) < 1e-6 } ?? (record[4] == nil))
        }
    }

    @Test("Garmin's decoder reads the hand-written file (full timestamps: it takes no compressed ones) as we do, point by point",
          .enabled(if: TrackFiles.hasGarminFIT, "needs python3 with garmin-fit-sdk (scripts/test installs it)"))
    func oracleHandWritten() throws {
        try Self.expectSame(Self.handWritten(compressed: false), name: "hand.fit")
    }

    @Test("Garmin's decoder reads our FIT export of a sample track as we do, point by point",
          .enabled(if: TrackFiles.hasGarminFIT, "needs python3 with garmin-fit-sdk (scripts/test installs it)"),
          arguments: [("demo-short", "1m warmup, 2x(30s run, 30s walk), 1m cooldown"),
                      ("city-stopgo", "10m warmup, 6x(3m run, 2m walk), 5m cooldown")])
    func oracleExport(name: String, workout: String) async throws {
        let session = try await TrackFiles.session(name, workout: workout)
        try Self.expectSame(FITActivityWriter.render(session), name: "\(name).fit")
    }
}
