import Foundation
import Testing

/// `runwalk fixes` reads every track format replay reads, through the same reader.
@Suite("runwalk fixes: GPX, TCX, FIT and gzip")
struct FixesTrackFormatsTests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="47.0" lon="8.0"><name>start</name></wpt>
          <trk><trkseg>
            <trkpt lat="47.000000" lon="8.000000"><ele>410.0</ele><time>2026-04-21T19:00:00Z</time></trkpt>
            <trkpt lat="47.000027" lon="8.000000"><ele>410.5</ele><time>2026-04-21T19:00:01Z</time></trkpt>
            <trkpt lat="47.000054" lon="8.000000"><ele>411.0</ele><time>2026-04-21T19:00:02Z</time></trkpt>
          </trkseg></trk>
        </gpx>

        """

    @Test("a GPX file: one object per point, its waypoint warned, counted at the end")
    func gpxFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rw-fixes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        // No .gpx in the name: the content decides.
        let path = folder.appendingPathComponent("track.dat").path
        try Data(Self.gpx.utf8).write(to: URL(fileURLWithPath: path))
        let result = try RunWalkBinary.run(["fixes", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["time"] as? String } == ["2026-04-21T19:00:00.000Z", "2026-04-21T19:00:01.000Z", "2026-04-21T19:00:02.000Z"])
        #expect(objects.map { $0["lat"] as? Double } == [47.0, 47.000027, 47.000054])
        #expect(objects.map { $0["alt_msl"] as? Double } == [410.0, 410.5, 411.0])
        #expect(result.stderr.contains("waypoint"), "the waypoint is warned: \(result.stderr)")
        #expect(result.stderr.contains("\(path): 3 points from a GPX file"), "\(result.stderr)")
        let csv = try RunWalkBinary.run(["fixes", path, "--format", "csv"])
        #expect(csv.status == 0 && csv.stdout.split(separator: "\n").count == 4, "a header and three rows: \(csv.stdout)")
    }

    @Test("several tracks: all by default, --track 2 reads the second, --track 3 and --track 0 exit 2")
    func trackOption() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rw-fixes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("two.gpx").path
        let second = "<trk><trkseg><trkpt lat=\"47.1\" lon=\"8.1\"><time>2026-04-21T20:00:00Z</time></trkpt>"
            + "<trkpt lat=\"47.100027\" lon=\"8.1\"><time>2026-04-21T20:00:01Z</time></trkpt></trkseg></trk>"
        try Data(Self.gpx.replacingOccurrences(of: "</gpx>", with: second + "</gpx>").utf8).write(to: URL(fileURLWithPath: path))
        let all = try RunWalkBinary.run(["fixes", path])
        #expect(all.status == 0 && all.stdout.split(separator: "\n").count == 5, "\(all.stdout)\(all.stderr)")
        let two = try RunWalkBinary.run(["fixes", path, "--track", "2"])
        #expect(two.status == 0, "\(two.stderr)")
        #expect(two.stdout.split(separator: "\n").map { $0.hasPrefix(#"{"time":"2026-04-21T20:00:0"#) } == [true, true], "\(two.stdout)")
        let three = try RunWalkBinary.run(["fixes", path, "--track", "3"])
        #expect(three.status == 2 && three.stdout.isEmpty, "\(three.stderr)")
        #expect(three.stderr.contains(path), "names the file: \(three.stderr)")
        let zero = try RunWalkBinary.run(["fixes", path, "--track", "0"])
        #expect(zero.status != 0 && zero.stderr.contains("--track counts from 1"), "\(zero.stderr)")
    }

    @Test("a session exported as GPX, TCX and FIT, and FIT gzip-compressed through a pipe: as many fixes as the original epochs")
    func exportsAndPipe() async throws {
        let folder = try TemporaryDataFolder("runwalk-fixes-formats")
        let replay = try await ExportImportCommandTests.runwalk(["replay", "SampleTracks/demo-short.nmea", "--workout", "4m run", "--json"],
                                                               dataDir: folder.url)
        try #require(replay.status == 0, "\(replay.stderr)")
        let original = try RunWalkBinary.run(["fixes", "SampleTracks/demo-short.nmea"])
        let originalTimes = original.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["time"] as? String
        }
        try #require(originalTimes.count == 251)
        for format in ["gpx", "tcx", "fit"] {
            let file = folder.url.appendingPathComponent("run.\(format)").path
            let exported = try await ExportImportCommandTests.runwalk(["export", "last", "--format", format, "-o", file], dataDir: folder.url)
            try #require(exported.status == 0, "\(exported.stderr)")
            let fixes = try RunWalkBinary.run(["fixes", file])
            #expect(fixes.status == 0, "\(format): \(fixes.stderr)")
            let times = fixes.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["time"] as? String
            }
            // The recorded track holds every used epoch of the 4-minute workout.
            #expect(times.count >= 240 && Set(times).isSubset(of: Set(originalTimes)), "\(format): \(times.count) fixes")
            #expect(fixes.stderr.contains("points from a \(format.uppercased()) file"), "\(fixes.stderr)")
        }
        let fit = folder.url.appendingPathComponent("run.fit").path
        let output = try RunWalkBinary.collect(Launch(["-o", "pipefail", "-c", "gzip -c '\(fit)' | '\(RunWalkBinary.url.path)' fixes -"],
                                                      executable: "/bin/bash"))
        let direct = try RunWalkBinary.run(["fixes", fit])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == direct.stdout, "the same fixes from gzip on standard input")
        #expect(output.stderr.contains("points from a FIT file (gzip)"), "\(output.stderr)")
    }

    @Test("NMEA gzip-compressed through a pipe: the same fixes and counts as the plain file")
    func nmeaGzipPipe() throws {
        let output = try RunWalkBinary.collect(Launch(["-o", "pipefail", "-c", "gzip -c SampleTracks/demo-short.nmea | '\(RunWalkBinary.url.path)' fixes -"],
                                                      executable: "/bin/bash"))
        let direct = try RunWalkBinary.run(["fixes", "SampleTracks/demo-short.nmea"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == direct.stdout)
        let count = { (text: String) in text.split(separator: "\n").last.map { String($0.split(separator: ":", maxSplits: 1).last ?? "") } }
        #expect(count(output.stderr) == count(direct.stderr), "same counts: \(output.stderr) vs \(direct.stderr)")
    }
}
