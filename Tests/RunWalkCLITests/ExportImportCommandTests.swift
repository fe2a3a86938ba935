import Foundation
import Testing

@Suite("runwalk export, import and report --format html (end to end)")
struct ExportImportCommandTests {
    /// Runs `runwalk` with `dataDir` as its data folder on a thread of its own at nice 10, so
    /// waiting for it holds none of the cooperative pool's few threads (the gpsd suites'
    /// async tests need them on time).
    static func runwalk(_ arguments: [String], dataDir: URL? = nil) async throws -> RunWalkBinary.Output {
        let dataPath = dataDir?.path
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
                continuation.resume(with: Result {
                    // Private folders (Launch); the given data folder when there is one.
                    try RunWalkBinary.collect(Launch(arguments, environment: dataPath.map { ["RUNWALK_DATA_DIR": $0] } ?? [:]))
                })
            }.start()
        }
    }

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
    func roundTrip() async throws {
        let folder = try TemporaryDataFolder("runwalk-export")
        let gpx = folder.url.appendingPathComponent("run.gpx").path, nmea = folder.url.appendingPathComponent("run.nmea").path
        let original = try await Self.runwalk(["replay", Sample.loop, "--workout", Sample.loopWorkout, "--json"], dataDir: folder.url)
        #expect(original.status == 0, "\(original.stderr)")
        let exported = try await Self.runwalk(["export", "last", "--format", "gpx", "-o", gpx], dataDir: folder.url)
        #expect(exported.status == 0, "\(exported.stderr)")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.contains("<hdop>"), "the loader fills HDOP from the recorded fixes")
        let imported = try await Self.runwalk(["import", gpx, "-o", nmea], dataDir: folder.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.hasPrefix("imported 1801 points in 1 segment(s)"), "\(imported.stderr)")
        let replayed = try await Self.runwalk(["replay", nmea, "--workout", Sample.loopWorkout, "--json", "--no-record"], dataDir: folder.url)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let a = try Self.distance(ofReplayJSON: original.stdout), b = try Self.distance(ofReplayJSON: replayed.stdout)
        #expect(abs(b / a - 1) < 0.005, "original \(a) m, re-imported \(b) m")
    }

    @Test("export writes each format of a stored session", arguments: ["gpx", "tcx", "fit"])
    func formats(format: String) async throws {
        let folder = try TemporaryDataFolder("runwalk-export")
        _ = try await Self.runwalk(["replay", Sample.demo, "--workout", Sample.demoWorkout], dataDir: folder.url)
        let file = folder.url.appendingPathComponent("run.\(format)").path
        let result = try await Self.runwalk(["export", "1", "--format", format, "-o", file], dataDir: folder.url)
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
    func missingSession() async throws {
        let folder = try TemporaryDataFolder("runwalk-export")
        _ = try await Self.runwalk(["replay", Sample.demo, "--workout", Sample.demoWorkout], dataDir: folder.url)
        let missing = try await Self.runwalk(["export", "7", "--format", "gpx"], dataDir: folder.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("runwalk: error: "))
        #expect(missing.stderr.contains("7"))
        let bad = try await Self.runwalk(["export", "yesterday", "--format", "gpx"], dataDir: folder.url)
        #expect(bad.status == 2, "\(bad.stderr)")
    }

    @Test("report --format html writes one self-contained page of the stored session")
    func reportHTML() async throws {
        let folder = try TemporaryDataFolder("runwalk-export")
        _ = try await Self.runwalk(["replay", Sample.demo, "--workout", Sample.demoWorkout], dataDir: folder.url)
        let file = folder.url.appendingPathComponent("report.html").path
        let result = try await Self.runwalk(["report", "last", "--format", "html", "-o", file], dataDir: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<h1>\(Sample.demoWorkout)</h1>"))
        #expect(html.contains("series pace") && html.contains("class=\"route\"") && html.contains("class=\"intervals\""))
        #expect(!html.contains("<script") && !html.contains("http"))
    }

    @Test("import errors exit 2 naming the file, the line and the cause", arguments: [
        ("<gpx><trk><trkseg>\n<trkpt lat=\"47\" lon=\"8\"></trkpt></trkseg></trk></gpx>",
         "runwalk: error: bad.gpx:line 2: no usable GPX points (timed, with a position): 1 track points skipped: no <time> (RunWalk replays a track by its own clock)\n"),
        ("<html></html>", "runwalk: error: bad.gpx:line 1: the root element is <html>: not GPX (<gpx>) or TCX (<TrainingCenterDatabase>)\n"),
    ])
    func importErrors(content: String, message: String) async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.gpx")
        try content.write(to: file, atomically: true, encoding: .utf8)
        let result = try await Self.runwalk(["import", file.path, "-o", "-"])
        #expect(result.status == 2)
        #expect(result.stderr == message.replacingOccurrences(of: "bad.gpx", with: file.path))
        #expect(result.stdout.isEmpty)
    }

    @Test("import will not overwrite without --force, and a missing file exits 2")
    func importSafety() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gpx = folder.appendingPathComponent("a.gpx"), nmea = folder.appendingPathComponent("a.nmea")
        try "<gpx><trk><trkseg><trkpt lat=\"47\" lon=\"8\"><time>2026-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"
            .write(to: gpx, atomically: true, encoding: .utf8)
        try "keep me".write(to: nmea, atomically: true, encoding: .utf8)
        let refused = try await Self.runwalk(["import", gpx.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("exists; use --force"))
        #expect(try String(contentsOf: nmea, encoding: .utf8) == "keep me")
        let forced = try await Self.runwalk(["import", gpx.path, "--force"])
        #expect(forced.status == 0)
        #expect(try String(contentsOf: nmea, encoding: .utf8).contains("$GPGGA,000000.000,4700.000000,N,00800.000000,E,1,08,,"))
        let missing = try await Self.runwalk(["import", folder.appendingPathComponent("none.gpx").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasSuffix("none.gpx: no such file\n"))
    }
}
