import Foundation
import RunWalkCore
import RunWalkReport
import Testing

@Suite("FITActivityWriter")
struct FITActivityWriterTests {
    /// Decodes a FIT file with Garmin's own SDK and prints what the tests compare, as JSON.
    static let decoder = """
    import json, sys
    from garmin_fit_sdk import Decoder, Stream
    # is_fit and check_integrity consume the stream: each check gets its own.
    ok_fit = Decoder(Stream.from_file(sys.argv[1])).is_fit()
    ok_crc = Decoder(Stream.from_file(sys.argv[1])).check_integrity()
    messages, errors = Decoder(Stream.from_file(sys.argv[1])).read(convert_datetimes_to_dates=False)
    s = messages["session_mesgs"][0]
    laps = messages["lap_mesgs"]
    records = messages["record_mesgs"]
    print(json.dumps({
      "is_fit": ok_fit, "integrity": ok_crc, "errors": [str(e) for e in errors],
      "file_type": messages["file_id_mesgs"][0]["type"],
      "session_distance": s["total_distance"], "session_timer": s["total_timer_time"],
      "session_elapsed": s["total_elapsed_time"], "num_laps": s["num_laps"], "laps": len(laps),
      "lap_distances": [l["total_distance"] for l in laps],
      "lap_intensities": [l["intensity"] for l in laps],
      "records": len(records), "last_record_distance": records[-1]["distance"],
      "first_lat": records[0]["position_lat"], "activities": len(messages["activity_mesgs"]),
      "has_speed": all("speed" in r or "enhanced_speed" in r for r in records[5:]),
    }))
    """

    struct Decoded: Decodable {
        var is_fit: Bool
        var integrity: Bool
        var errors: [String]
        var file_type: String
        var session_distance: Double
        var session_timer: Double
        var session_elapsed: Double
        var num_laps: Int
        var laps: Int
        var lap_distances: [Double]
        var lap_intensities: [String]
        var records: Int
        var last_record_distance: Double
        var first_lat: Int
        var activities: Int
        var has_speed: Bool
    }

    static func decode(_ bytes: [UInt8], name: String = "run") async throws -> Decoded {
        Tool.keep(Data(bytes), as: "\(name).fit")
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("run.fit")
        try Data(bytes).write(to: file)
        let result = try await Tool.run(try #require(Tool.python), ["-c", decoder, file.path])
        try #require(result.status == 0, "python: \(result.stderr)")
        return try JSONDecoder().decode(Decoded.self, from: Data(result.stdout.utf8))
    }

    @Test("Garmin's FIT SDK decodes our file with no errors; session totals and laps equal ours",
          .enabled(if: Tool.hasGarminFIT, "needs python3 with garmin-fit-sdk (scripts/test installs it)"),
          arguments: ["track-loop", "trail-10hz", "city-stopgo"])
    func garminDecodes(name: String) async throws {
        let session = try await SampleSession.named(name)
        let decoded = try await Self.decode(FITActivityWriter.render(session), name: name)
        #expect(decoded.is_fit)
        #expect(decoded.integrity, "CRC")
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
        #expect(decoded.file_type == "activity")
        #expect(abs(decoded.session_distance - session.summary.distanceMetres) < 0.006)
        #expect(abs(decoded.session_timer - session.summary.durationSeconds) < 0.0006)
        #expect(decoded.session_elapsed >= decoded.session_timer)
        #expect(decoded.num_laps == session.summary.phases.count)
        #expect(decoded.laps == session.summary.phases.count)
        #expect(zip(decoded.lap_distances, session.summary.phases).allSatisfy { abs($0 - $1.distanceMetres) < 0.006 })
        #expect(decoded.lap_intensities.first == (session.summary.phases.first?.kind == .warmup ? "warmup" : "active"))
        #expect(decoded.activities == 1)
        #expect(decoded.has_speed)
        let lastPoint = try #require(session.track.last)
        #expect(abs(decoded.last_record_distance - lastPoint.distanceMetres) < 0.006)
        let firstPoint = try #require(session.track.first)
        #expect(abs(Double(decoded.first_lat) * 180 / 2_147_483_648 - firstPoint.latitude) < 1e-6)
    }

    @Test("the CRC is CRC-16/ARC: check value of \"123456789\" is 0xBB3D")
    func crcCheckValue() {
        #expect(FITEncoder.crc16(Array("123456789".utf8)) == 0xBB3D)
    }

    @Test("the file's CRC over everything, trailer included, is zero; the header says its data size")
    func crcAndHeader() async throws {
        let bytes = FITActivityWriter.render(try await SampleSession.named("demo-short"))
        #expect(FITEncoder.crc16(bytes) == 0)
        #expect(FITEncoder.crc16(bytes[0..<14]) == 0)
        #expect(Array(bytes[8..<12]) == Array(".FIT".utf8))
        let dataSize = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        #expect(dataSize == bytes.count - 16)
    }

    @Test("records are one per second even for a 10 Hz track")
    func oneRecordPerSecond() async throws {
        let session = try await SampleSession.named("trail-10hz")
        guard Tool.hasGarminFIT else { return }
        let decoded = try await Self.decode(FITActivityWriter.render(session))
        let seconds = Set(session.track.map { $0.time.milliseconds / 1000 }).count
        #expect(decoded.records == seconds || decoded.records == seconds + 1)
    }
}
