import Foundation
import Testing

/// Hostile arguments, config files and imports (issue 31): each ends at once with one line and
/// exit 2, never a crash, a hang or an empty file.
@Suite("Hostile arguments, config files and imports")
struct HostileArgumentTests {
    /// `runwalk ARGS` with a deadline (exit 124 when it is passed: a hang fails the test, not the run).
    static func run(_ folder: TemporaryDataFolder, _ arguments: [String], seconds: Int = 60) throws -> RunWalkBinary.Output {
        try HostileTrackFileTests.measured(folder, arguments, seconds: seconds).output
    }

    static func expectRefused(_ output: RunWalkBinary.Output, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(output.status == 2, "\(output.status): \(output.stderr)", sourceLocation: sourceLocation)
        #expect(output.stderr.contains(message), "\(output.stderr)", sourceLocation: sourceLocation)
        #expect(!looksLikeCrash(output), "\(output.stderr)", sourceLocation: sourceLocation)
    }

    @Test("numbers out of range are refused when parsed, with the range: --weeks, --control times, --speed")
    func numericArguments() throws {
        let folder = try TemporaryDataFolder("runwalk-hostile")
        try folder.recordDemo()
        for weeks in ["9223372036854775807", "100000000", "0"] {
            Self.expectRefused(try Self.run(folder, ["history", "--weeks", weeks]), "--weeks must be from 1 to 1040, not \(weeks)")
        }
        #expect(try Self.run(folder, ["history", "--weeks", "1040"]).status == 0)
        for time in ["99999999999999", "1e400", "inf", "100:00:01"] {
            let output = try Self.run(folder, ["replay", Sample.demo, "--workout", "5m run", "--no-record", "--control", "pause@\(time)"])
            Self.expectRefused(output, "--control \"pause@\(time)\": time \"\(time)\" is past 100:00:00")
        }
        let many = Array(repeating: "skip@1", count: 1001).joined(separator: ",")
        Self.expectRefused(try Self.run(folder, ["replay", Sample.demo, "--workout", "5m run", "--no-record", "--control", many]),
                           "1001 commands, more than 1000")
        for speed in ["1e308", "0", "-1", "nan", "20000"] {
            let run = try Self.run(folder, ["run", "5m run", "--gps", "file:\(Sample.demo)", "--speed=\(speed)", "--no-record", "--voice", "off"])
            Self.expectRefused(run, "--speed must be a number from 0.01 to 10000, not")
            let replay = try Self.run(folder, ["replay", Sample.demo, "--workout", "5m run", "--speed=\(speed)", "--no-record"])
            Self.expectRefused(replay, "--speed must be a number from 0.01 to 10000, not")
        }
    }

    @Test("importing junk or an empty file is an error (exit 2) and writes nothing; --force keeps the good track")
    func emptyImports() throws {
        let folder = try TemporaryDataFolder("runwalk-hostile")
        let target = folder.url.appendingPathComponent("good.nmea")
        let points = (0..<60).map { t in
            "<trkpt lat=\"\(47.37 + 3 * Double(t) / 111_195)\" lon=\"8.54\"><time>2026-04-12T06:30:\(t < 10 ? "0" : "")\(t)Z</time></trkpt>"
        }.joined(separator: "\n")
        let source = folder.url.appendingPathComponent("run.gpx")
        try Data("<gpx version=\"1.1\"><trk><trkseg>\n\(points)\n</trkseg></trk></gpx>\n".utf8).write(to: source)
        let good = try Self.run(folder, ["import", source.path, "-o", target.path])
        try #require(good.status == 0, "\(good.stderr)")
        let before = try Data(contentsOf: target)
        for (name, content) in [("junk.txt", "hello\nworld\n"), ("empty.gpx", ""), ("empty-track.gpx", "<gpx version=\"1.1\"><trk><trkseg></trkseg></trk></gpx>\n")] {
            let file = folder.url.appendingPathComponent(name)
            try Data(content.utf8).write(to: file)
            let fresh = folder.url.appendingPathComponent("fresh.nmea")
            Self.expectRefused(try Self.run(folder, ["import", file.path, "-o", fresh.path]), file.path + ":")
            #expect(!FileManager.default.fileExists(atPath: fresh.path), "\(name) wrote a file")
            Self.expectRefused(try Self.run(folder, ["import", file.path, "-o", target.path, "--force"]), file.path + ":")
            #expect(try Data(contentsOf: target) == before, "\(name) --force replaced the good track")
            let toStdout = try Self.run(folder, ["import", file.path, "-o", "-"])
            #expect(toStdout.status == 2 && toStdout.stdout.isEmpty)
        }
        let contents = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!contents.contains { $0.contains(".part-") }, "\(contents)")
    }

    @Test("a 4 MB line in workouts.txt, settings.conf or a plan is refused at once, naming file and line")
    func longConfigLines() throws {
        let folder = try TemporaryDataFolder("runwalk-hostile")
        let config = folder.configURL
        try FileManager.default.createDirectory(at: config.appendingPathComponent("plans"), withIntermediateDirectories: true)
        let long = String(repeating: "1m run, ", count: 500_000)
        let workouts = config.appendingPathComponent("workouts.txt")
        try Data("easy = 5m run\nhuge = \(long)5m walk\n".utf8).write(to: workouts)
        let started = Date()
        Self.expectRefused(try Self.run(folder, ["workouts", "list"]), "\(workouts.path):line 2: longer than 64 KB")
        #expect(Date().timeIntervalSince(started) < 5)
        try FileManager.default.removeItem(at: workouts)

        let settings = config.appendingPathComponent("settings.conf")
        try Data("units = metric\n# \(long)\n".utf8).write(to: settings)
        Self.expectRefused(try Self.run(folder, ["replay", Sample.demo, "--workout", "5m run", "--no-record"]),
                           "\(settings.path):line 2: longer than 64 KB")
        try FileManager.default.removeItem(at: settings)

        let imported = folder.url.appendingPathComponent("import.txt")
        try Data("\u{FEFF}ok = 5m run\nhuge = \(long)5m walk\n".utf8).write(to: imported)
        Self.expectRefused(try Self.run(folder, ["workouts", "import", imported.path]), "\(imported.path):line 2: longer than 64 KB")

        let plan = config.appendingPathComponent("plans/long.json")
        try Data("{\"name\": \"long\", \"weeks\": [{\"days\": [{\"workout\": \"\(long)\"}]}]}\n".utf8).write(to: plan)
        Self.expectRefused(try Self.run(folder, ["plan", "list"]), "\(plan.path):line 1: longer than 64 KB")
    }

    @Test("a byte-order mark is accepted at the start of workouts.txt, settings.conf and a plan")
    func byteOrderMarks() throws {
        let folder = try TemporaryDataFolder("runwalk-hostile")
        let config = folder.configURL
        try FileManager.default.createDirectory(at: config.appendingPathComponent("plans"), withIntermediateDirectories: true)
        let bom = "\u{FEFF}"
        try Data("\(bom)first = 5m run\nsecond = 6m run\n".utf8).write(to: config.appendingPathComponent("workouts.txt"))
        try Data("\(bom)units = imperial\n".utf8).write(to: config.appendingPathComponent("settings.conf"))
        try Data("\(bom){\"name\": \"bommed\", \"weeks\": [{\"days\": [{\"workout\": \"5m run\"}]}]}\n".utf8)
            .write(to: config.appendingPathComponent("plans/bommed.json"))
        let list = try Self.run(folder, ["workouts", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("first") && list.stdout.contains("second"), "\(list.stdout)")
        let plans = try Self.run(folder, ["plan", "list"])
        #expect(plans.status == 0, "\(plans.stderr)")
        #expect(plans.stdout.contains("bommed"), "\(plans.stdout)")
        let replay = try Self.run(folder, ["replay", Sample.demo, "--workout", "first", "--no-record"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains(" mi") || replay.stdout.contains("/mi"), "imperial units from settings.conf: \(replay.stdout)")
    }

    @Test("a FIFO in place of workouts.txt, settings.conf or a plan is named, and nothing waits on it")
    func fifosInsteadOfConfigFiles() throws {
        let folder = try TemporaryDataFolder("runwalk-hostile")
        let config = folder.configURL
        try FileManager.default.createDirectory(at: config.appendingPathComponent("plans"), withIntermediateDirectories: true)
        let cases: [(file: String, arguments: [String])] = [
            ("workouts.txt", ["workouts", "list"]),
            ("workouts.txt", ["replay", Sample.demo, "--workout", "5m run", "--no-record"]),
            ("settings.conf", ["replay", Sample.demo, "--workout", "5m run", "--no-record"]),
            ("settings.conf", ["run", "5m run", "--gps", "file:\(Sample.demo)", "--speed", "1000", "--start", "now", "--no-record"]),
            ("plans/fifo.json", ["plan", "list"]),
        ]
        for (file, arguments) in cases {
            let path = config.appendingPathComponent(file).path
            try #require(mkfifo(path, 0o600) == 0)
            let output = try Self.run(folder, arguments, seconds: 20)
            Self.expectRefused(output, "\(path): is a FIFO (named pipe), not a regular file")
            unlink(path)
        }
    }
}
