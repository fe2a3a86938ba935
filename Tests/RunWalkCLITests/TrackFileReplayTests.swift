import Foundation
import Testing

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
                let gzip = Process()
                gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
                gzip.arguments = ["-k", file]
                try gzip.run()
                gzip.waitUntilExit()
                try #require(gzip.terminationStatus == 0)
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
}
