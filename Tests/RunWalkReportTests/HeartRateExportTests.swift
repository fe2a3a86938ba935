import Foundation
import RunWalkCore
import RunWalkReport
import Testing

/// Heart rate out: GPX (TrackPointExtension v1), TCX (HeartRateBpm) and FIT (record.heart_rate),
/// each valid, and a replay → export → replay round trip that keeps every sample (issue 32).
@Suite("Heart rate export")
struct HeartRateExportTests {
    /// A recorded sample session with a heart rate on every point but every 50th (a strap's
    /// dropout), drifting from 120 to 170 bpm.
    static func session() async throws -> RecordedSession {
        var session = try await SampleSession.named("track-loop")
        let count = session.track.count
        for i in session.track.indices where i % 50 != 7 {
            session.track[i].heartRateBPM = 120 + 50 * i / max(1, count - 1)
        }
        return session
    }

    static let bothSchemas = SampleSession.schemasFolder.appendingPathComponent("gpx-with-trackpointextension.xsd").path
    static let tcxSchema = SampleSession.schemasFolder.appendingPathComponent("TrainingCenterDatabasev2.xsd").path
    static let canValidate = Tool.find("xmllint") != nil && FileManager.default.fileExists(atPath: bothSchemas)

    func validate(_ text: String, schema: String, name: String) async throws {
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        let result = try await Tool.run(try #require(Tool.find("xmllint")), ["--noout", "--schema", schema, file.path])
        #expect(result.status == 0, "xmllint: \(result.stderr)")
    }

    @Test("GPX with heart rate is valid GPX 1.1 with TrackPointExtension v1 checked",
          .enabled(if: canValidate, "needs xmllint and ../shared/data/schemas"))
    func gpxValid() async throws {
        let session = try await Self.session()
        let gpx = try await offPool { GPXWriter.render(session) }
        #expect(gpx.contains("<gpxtpx1:TrackPointExtension><gpxtpx1:hr>120</gpxtpx1:hr></gpxtpx1:TrackPointExtension>"))
        try await validate(gpx, schema: Self.bothSchemas, name: "hr.gpx")
        // A deliberately bad value is caught by the same check (the extension really is validated).
        try await withKnownIssue("hr out of the schema's range") {
            try await validate(gpx.replacingOccurrences(of: "<gpxtpx1:hr>120<", with: "<gpxtpx1:hr>x<"), schema: Self.bothSchemas, name: "bad.gpx")
        }
    }

    @Test("TCX with heart rate is valid TCX v2: HeartRateBpm per point, average and maximum per lap",
          .enabled(if: canValidate, "needs xmllint and ../shared/data/schemas"))
    func tcxValid() async throws {
        var session = try await Self.session()
        session.summary.phases[0].heartRateAverage = 121.4
        session.summary.phases[0].heartRateMax = 125
        let final = session
        let tcx = try await offPool { TCXWriter.render(final) }
        #expect(tcx.contains("<HeartRateBpm><Value>120</Value></HeartRateBpm>"))
        #expect(tcx.contains("<AverageHeartRateBpm><Value>121</Value></AverageHeartRateBpm>"))
        try await validate(tcx, schema: Self.tcxSchema, name: "hr.tcx")
    }

    @Test("Garmin's FIT SDK reads record.heart_rate sample for sample",
          .enabled(if: Tool.hasGarminFIT, "needs python3 with garmin-fit-sdk (scripts/test installs it)"))
    func fitDecodes() async throws {
        let session = try await Self.session()
        let bytes = try await offPool { FITActivityWriter.render(session) }
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hr.fit")
        try Data(bytes).write(to: file)
        let script = """
        import json, sys
        from garmin_fit_sdk import Decoder, Stream
        messages, errors = Decoder(Stream.from_file(sys.argv[1])).read(convert_datetimes_to_dates=False)
        print(json.dumps({"errors": [str(e) for e in errors],
                          "hr": [r.get("heart_rate") for r in messages["record_mesgs"]],
                          "times": [r["timestamp"] for r in messages["record_mesgs"]]}))
        """
        let result = try await Tool.run(try #require(Tool.python), ["-c", script, file.path])
        try #require(result.status == 0, "python: \(result.stderr)")
        struct Decoded: Decodable { var errors: [String]; var hr: [Int?]; var times: [Int64] }
        let decoded = try JSONDecoder().decode(Decoded.self, from: Data(result.stdout.utf8))
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
        // One record per second: compare with the points at those seconds.
        var bySecond: [Int64: Int?] = [:]
        for point in session.track {
            let second = point.time.milliseconds / 1000 - 631_065_600
            if bySecond[second] == nil { bySecond[second] = .some(point.heartRateBPM) }
        }
        let expected = decoded.times.map { bySecond[$0] ?? nil }
        #expect(decoded.hr == expected)
        #expect(decoded.hr.contains(nil) && decoded.hr.contains(170))
    }

    @Test("replay → export → replay keeps every heart-rate sample (±1 bpm)", arguments: ["gpx", "tcx", "fit"])
    func roundTrip(format: String) async throws {
        let original = try await Self.session()
        let spec = try #require(SampleSession.workouts["track-loop"])
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hr.\(format)")
        try await SampleSession.export(original, as: format, to: file)
        let replayed = try await SampleSession.replay(path: file.path, workout: spec)
        var byTime: [Int64: Int] = [:]
        for point in original.track { if let bpm = point.heartRateBPM { byTime[point.time.milliseconds] = bpm } }
        var compared = 0, missing = 0
        for point in replayed.track {
            guard let expected = byTime[point.time.milliseconds] else { continue }
            guard let bpm = point.heartRateBPM else { missing += 1; continue }
            #expect(abs(bpm - expected) <= 1, "at \(point.time.iso8601())")
            compared += 1
        }
        #expect(missing == 0)
        #expect(compared == byTime.count || format == "fit", "\(compared) of \(byTime.count)")
        #expect(compared > 0)
        #expect(replayed.summary.heartRateAverage != nil)
        #expect(replayed.summary.phases.allSatisfy { $0.heartRateMax != nil })
    }

    @Test("the HTML report has the heart-rate chart, the zones and per-interval heart rate; none without")
    func html() async throws {
        var session = try await Self.session()
        session.summary.heartRateAverage = 145
        session.summary.heartRateMax = 170
        session.summary.heartRateZoneSeconds = [100, 200, 300, 400, 500]
        session.summary.phases[0].heartRateAverage = 121
        session.summary.phases[0].heartRateMax = 125
        let final = session
        let page = try await offPool { HTMLReport.render(final) }
        #expect(page.contains("series heart"))
        #expect(page.contains("<h2>Heart rate</h2>"))
        #expect(page.contains("Aerobic decoupling"))
        #expect(page.contains("<th scope=\"col\">Avg HR</th>"))
        #expect(page.contains("<td>Z5</td>"))
        let plain = try await SampleSession.named("track-loop")
        let without = try await offPool { HTMLReport.render(plain) }
        #expect(!without.contains("Heart rate") && !without.contains("Avg HR"))
    }
}
