import Foundation
import Testing

@Suite("runwalk export, import and report --format html (end to end)")
struct ExportImportCommandTests {
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func distance(ofReplayJSON text: String) throws -> Double {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return try #require(object?["distance_m"] as? Double)
    }

    @Test("replay records, export GPX from the store, import it, replay it: the same distance within 0.5 %")
    func roundTrip() throws {
        let folder = try TemporaryDataFolder("runwalk-export")
        let gpx = folder.url.appendingPathComponent("run.gpx").path, nmea = folder.url.appendingPathComponent("run.nmea").path
        let original = try folder.run(["replay", Sample.loop, "--workout", Sample.loopWorkout, "--json"])
        #expect(original.status == 0, "\(original.stderr)")
        let exported = try folder.run(["export", "last", "--format", "gpx", "-o", gpx])
        #expect(exported.status == 0, "\(exported.stderr)")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.contains("<hdop>"), "the loader fills HDOP from the recorded fixes")
        let imported = try folder.run(["import", gpx, "-o", nmea])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.hasPrefix("imported 1801 points in 1 segment(s)"), "\(imported.stderr)")
        let replayed = try folder.run(["replay", nmea, "--workout", Sample.loopWorkout, "--json", "--no-record"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let a = try Self.distance(ofReplayJSON: original.stdout), b = try Self.distance(ofReplayJSON: replayed.stdout)
        #expect(abs(b / a - 1) < 0.005, "original \(a) m, re-imported \(b) m")
    }

    @Test("export writes each format of a stored session", arguments: ["gpx", "tcx", "fit"])
    func formats(format: String) throws {
        let folder = try TemporaryDataFolder("runwalk-export")
        _ = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout])
        let file = folder.url.appendingPathComponent("run.\(format)").path
        let result = try folder.run(["export", "1", "--format", format, "-o", file])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let head = String(decoding: data.prefix(200), as: UTF8.self)
        switch format {
        case "gpx": #expect(head.contains("<gpx version=\"1.1\""))
        case "tcx": #expect(head.contains("<TrainingCenterDatabase"))
        default: #expect(Array(data[8..<12]) == Array(".FIT".utf8))
        }
    }

    @Test("export and report name a missing session; a bad reference exits 2")
    func missingSession() throws {
        let folder = try TemporaryDataFolder("runwalk-export")
        _ = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout])
        let missing = try folder.run(["export", "7", "--format", "gpx"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("runwalk: error: "))
        #expect(missing.stderr.contains("7"))
        let bad = try folder.run(["export", "yesterday", "--format", "gpx"])
        #expect(bad.status == 2, "\(bad.stderr)")
    }

    @Test("report --format html writes one self-contained page of the stored session")
    func reportHTML() throws {
        let folder = try TemporaryDataFolder("runwalk-export")
        _ = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout])
        let file = folder.url.appendingPathComponent("report.html").path
        let result = try folder.run(["report", "last", "--format", "html", "-o", file])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<h1>\(Sample.demoWorkout)</h1>"))
        #expect(html.contains("series pace") && html.contains("class=\"route\"") && html.contains("class=\"intervals\""))
        #expect(!html.contains("<script") && !html.contains("http"))
    }

    @Test("import errors exit 2 naming the file, the line and the cause", arguments: [
        ("<gpx><trk><trkseg>\n<trkpt lat=\"47\" lon=\"8\"></trkpt></trkseg></trk></gpx>",
         "runwalk: error: bad.gpx: line 2: <trkpt> has no <time>; RunWalk replays a track by its own clock\n"),
        ("<html></html>", "runwalk: error: bad.gpx: line 1: the root element is <html>, not <gpx>\n"),
    ])
    func importErrors(content: String, message: String) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.gpx")
        try content.write(to: file, atomically: true, encoding: .utf8)
        let result = try RunWalkBinary.run(["import", file.path, "-o", "-"])
        #expect(result.status == 2)
        #expect(result.stderr == message.replacingOccurrences(of: "bad.gpx", with: file.path))
        #expect(result.stdout.isEmpty)
    }

    @Test("import will not overwrite without --force, and a missing file exits 2")
    func importSafety() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gpx = folder.appendingPathComponent("a.gpx"), nmea = folder.appendingPathComponent("a.nmea")
        try "<gpx><trk><trkseg><trkpt lat=\"47\" lon=\"8\"><time>2026-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"
            .write(to: gpx, atomically: true, encoding: .utf8)
        try "keep me".write(to: nmea, atomically: true, encoding: .utf8)
        let refused = try RunWalkBinary.run(["import", gpx.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("exists; use --force"))
        #expect(try String(contentsOf: nmea, encoding: .utf8) == "keep me")
        let forced = try RunWalkBinary.run(["import", gpx.path, "--force"])
        #expect(forced.status == 0)
        #expect(try String(contentsOf: nmea, encoding: .utf8).contains("$GPGGA,000000.000,4700.000000,N,00800.000000,E,1,08,,"))
        let missing = try RunWalkBinary.run(["import", folder.appendingPathComponent("none.gpx").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasSuffix("none.gpx: no such file\n"))
    }
}
