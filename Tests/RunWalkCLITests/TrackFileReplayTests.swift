import Foundation
import Testing
import RunWalkTestSupport

@Suite("replay and import read GPX, TCX and FIT (end to end)")
struct TrackFileReplayTests {
    static func summary(_ text: String) throws -> (distance: Double, duration: Double) {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return (try #require(object?["distance_m"] as? Double), try #require(object?["duration_s"] as? Double))
    }

    @Test("a recorded session exported as GPX, TCX and FIT (and FIT gzip-compressed) and replayed: the same distance within 0.5 % and the same duration")
    func roundTrip() async throws {
        let folder = try TemporaryDataFolder("runwalk-tracks")
        let original = try await ExportImportCommandTests.runwalk(["replay", Sample.loop, "--workout", Sample.loopWorkout, "--json"], dataDir: folder.url)
        try #require(original.status == 0, "\(original.stderr)")
        let recorded = try Self.summary(original.stdout)
        for format in ["gpx", "tcx", "fit"] {
            let file = folder.url.appendingPathComponent("run.\(format)").path
            let exported = try await ExportImportCommandTests.runwalk(["export", "last", "--format", format, "-o", file], dataDir: folder.url)
            try #require(exported.status == 0, "\(exported.stderr)")
            var files = [file]
            if format == "fit" {
                let gzip = try ChildProcess.run("/bin/gzip", ["-k", file], seconds: 60)
                try #require(gzip.status == 0, "\(gzip.stderr)")
                files.append(file + ".gz")
            }
            for path in files {
                let replayed = try await ExportImportCommandTests.runwalk(["replay", path, "--workout", Sample.loopWorkout, "--json", "--no-record"],
                                                                         dataDir: folder.url)
                #expect(replayed.status == 0, "\(path): \(replayed.stderr)")
                #expect(replayed.stderr.isEmpty, "\(path): \(replayed.stderr)")
                let again = try Self.summary(replayed.stdout)
                #expect(abs(again.distance / recorded.distance - 1) < 0.005, "\(path): \(again.distance) m, recorded \(recorded.distance) m")
                #expect(again.duration == recorded.duration, "\(path)")
            }
        }
        // import reads the FIT as well: one segment of every point.
        let nmea = folder.url.appendingPathComponent("fit.nmea").path
        let imported = try await ExportImportCommandTests.runwalk(["import", folder.url.appendingPathComponent("run.fit").path, "-o", nmea], dataDir: folder.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.hasPrefix("imported 1801 points in 1 segment(s)"), "\(imported.stderr)")
    }

    @Test("a damaged FIT file: exit 2 and one line naming the file, the byte and the cause")
    func damagedFIT() async throws {
        let folder = try TemporaryDataFolder("runwalk-tracks")
        let recorded = try await ExportImportCommandTests.runwalk(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--json"], dataDir: folder.url)
        try #require(recorded.status == 0, "\(recorded.stderr)")
        let file = folder.url.appendingPathComponent("run.fit")
        let exported = try await ExportImportCommandTests.runwalk(["export", "last", "--format", "fit", "-o", file.path], dataDir: folder.url)
        try #require(exported.status == 0, "\(exported.stderr)")
        var bytes = try Data(contentsOf: file)
        bytes[100] ^= 0xFF
        try bytes.write(to: file)
        let replayed = try await ExportImportCommandTests.runwalk(["replay", file.path, "--workout", Sample.demoWorkout, "--no-record"], dataDir: folder.url)
        #expect(replayed.status == 2)
        #expect(replayed.stderr.hasPrefix("runwalk: error: \(file.path):byte \(bytes.count - 2): file CRC is 0x"), "\(replayed.stderr)")
        #expect(replayed.stderr.contains("(corrupt or truncated file)"))
        #expect(replayed.stderr.split(separator: "\n").count == 1)
    }

    /// Two tracks of 120 s at 3 m/s heading north, the second 600 m further and 60 s later.
    static func twoTracks() -> String {
        func points(_ range: ClosedRange<Int>, offset: Double) -> String {
            range.map { t in
                let seconds = 30 * 60 + t
                let time = String(format: "2026-04-12T06:%02d:%02dZ", seconds / 60, seconds % 60)
                return "<trkpt lat=\"\(47.37 + (3 * Double(t) + offset) / 111_195)\" lon=\"8.54\"><time>\(time)</time></trkpt>\n"
            }.joined()
        }
        return "<?xml version=\"1.0\"?>\n<gpx version=\"1.0\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/0\">\n"
            + "<trk><name>out</name><trkseg>\n" + points(0...119, offset: 0) + "</trkseg></trk>\n"
            + "<trk><name>back</name><trkseg>\n" + points(180...299, offset: 600) + "</trkseg></trk>\n</gpx>\n"
    }

    @Test("a GPX 1.0 file with two tracks: replay reads both without bridging them and says so, --track 2 reads one, --track 3 exits 2; standard input works too")
    func severalTracks() async throws {
        let folder = try TemporaryDataFolder("runwalk-tracks")
        let file = folder.url.appendingPathComponent("two.gpx")
        try Self.twoTracks().write(to: file, atomically: true, encoding: .utf8)
        let all = try folder.run(["replay", file.path, "--workout", "10m run", "--json", "--no-record"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stderr == "warning: \(file.path): the file has 2 tracks; read track(s) 1, 2 in file order, each a new segment (no distance across the gaps between them); --track N reads one\n")
        let both = try Self.summary(all.stdout)
        #expect(abs(both.distance - 714) < 20, "\(both.distance) m (two stretches of 357 m, 600 m apart)")
        let one = try folder.run(["replay", file.path, "--track", "2", "--workout", "10m run", "--json", "--no-record"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stderr.isEmpty, "\(one.stderr)")
        #expect(abs(try Self.summary(one.stdout).distance - 357) < 10)
        let missing = try folder.run(["replay", file.path, "--track", "3", "--workout", "10m run", "--no-record"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "runwalk: error: \(file.path): --track 3, but the file has 2 track(s)\n")
        var process = folder.process(["replay", "-", "--workout", "10m run", "--json", "--no-record"])
        process.standardInput = .file(file.path)
        let piped = try RunWalkBinary.collect(process)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try Self.summary(piped.stdout).distance == both.distance)
    }

    @Test("import: two tracks become two segments; a file that fails halfway leaves no output behind")
    func importSegmentsAndFailure() async throws {
        let folder = try TemporaryDataFolder("runwalk-tracks")
        let file = folder.url.appendingPathComponent("two.gpx")
        try Self.twoTracks().write(to: file, atomically: true, encoding: .utf8)
        let nmea = folder.url.appendingPathComponent("two.nmea")
        let imported = try folder.run(["import", file.path, "-o", nmea.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.hasSuffix("imported 240 points in 2 segment(s) → \(nmea.path)\n"), "\(imported.stderr)")
        let text = try String(contentsOf: nmea, encoding: .utf8)
        #expect(text.components(separatedBy: "$GPRMC").count - 1 == 240)
        // Valid up to a broken closing tag after the first track: the error comes after output was written.
        let broken = folder.url.appendingPathComponent("broken.gpx")
        try Self.twoTracks().replacingOccurrences(of: "</trkseg></trk>\n<trk><name>back", with: "</trk></trkseg>\n<trk><name>back")
            .write(to: broken, atomically: true, encoding: .utf8)
        let target = folder.url.appendingPathComponent("broken.nmea")
        let failed = try folder.run(["import", broken.path, "-o", target.path])
        #expect(failed.status == 2)
        #expect(failed.stderr.contains("broken.gpx:line 124: </trk> closes <trkseg>"), "\(failed.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("broken.nmea") }
        #expect(left.isEmpty, "\(left)")
    }
}
