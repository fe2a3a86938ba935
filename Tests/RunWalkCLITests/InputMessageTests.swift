import Foundation
import Testing

/// Issue 18, "Errors, never crashes": bad input is one clear, safe line; a bad line in the
/// workouts file breaks only what uses it; a file without fixes is not a track.
@Suite("messages about bad input (end to end)", .serialized)
struct InputMessageTests {
    static let deepSpec = String(repeating: "2x(", count: 12_000) + "1m run" + String(repeating: ")", count: 12_000)

    @Test("a spec nested 12,000 deep is an error at the first parenthesis past the limit, not a stack overflow")
    func deepSpec() throws {
        let folder = try TemporaryDataFolder()
        let result = try folder.run(["workouts", "show", Self.deepSpec])
        #expect(result.status == 2, "\(result.stderr.prefix(300))")
        #expect(result.stderr.hasPrefix("runwalk: error: workout spec: repeats nested more than 32 deep at column 99\n"))
        #expect(result.stderr.count < 400, "the spec is shown as a window, not whole")
    }

    @Test("a bad line in workouts.txt breaks only the workout it names and is a warning in `workouts list`")
    func badWorkoutsLine() throws {
        let folder = try TemporaryDataFolder()
        try FileManager.default.createDirectory(at: folder.configURL, withIntermediateDirectories: true)
        let text = "easy = 10x(1m run, 1m walk)\ndeep = \(Self.deepSpec)\nbad\u{1B}]0;owned\u{07} = 5m run\n"
        try Data(text.utf8).write(to: folder.configURL.appendingPathComponent("workouts.txt"))
        let env = ["RUNWALK_CONFIG_DIR": folder.configURL.path]

        let inline = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--no-record"], extraEnvironment: env)
        #expect(inline.status == 0, "\(inline.stderr.prefix(300))")
        let easy = try folder.run(["workouts", "show", "easy"], extraEnvironment: env)
        #expect(easy.status == 0)
        let deep = try folder.run(["workouts", "show", "deep"], extraEnvironment: env)
        #expect(deep.status == 2)
        #expect(deep.stderr.contains("workouts.txt: line 2, column"), "\(deep.stderr.prefix(300))")
        #expect(deep.stderr.contains("repeats nested more than 32 deep"))

        let list = try folder.run(["workouts", "list"], extraEnvironment: env)
        #expect(list.status == 0)
        #expect(list.stdout.contains("easy") && list.stdout.contains("galloway-3-1"))
        #expect(list.stderr.contains("line 2") && list.stderr.contains("line 3"), "\(list.stderr.prefix(400))")
        // The name's escape sequence would retitle the terminal: it is shown escaped.
        #expect(!list.stderr.contains("\u{1B}") && !list.stderr.contains("\u{07}"))
        #expect(list.stderr.contains("bad\\e]0;owned\\x07"), "\(list.stderr.prefix(400))")
    }

    @Test("a 900 KB GPX attribute (under the 1 MB cap of a tag) with an escape sequence is shortened and escaped in the message")
    func hostileGPX() throws {
        let folder = try TemporaryDataFolder()
        let gpx = folder.url.appendingPathComponent("hostile.gpx")
        let huge = "\u{1B}[2J" + String(repeating: "9", count: 900_000)
        try Data("<gpx><trk><trkseg><trkpt lat=\"\(huge)\" lon=\"x\"><time>2026-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>".utf8)
            .write(to: gpx)
        let result = try folder.run(["import", gpx.path, "-o", "-"])
        #expect(result.status == 2)
        #expect(result.stderr.count < 600, "shortened: \(result.stderr.count) characters")
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stderr.contains("\\e[2J999"))
    }

    @Test("file problems are said in plain words with the path, never a Foundation dump",
          arguments: [(["workouts", "import", "/"], "/: is a directory"),
                      (["workouts", "import", "/nonexistent/w.txt"], "/nonexistent/w.txt: no such file"),
                      (["import", "/nonexistent/t.gpx"], "/nonexistent/t.gpx: no such file"),
                      (["workouts", "import", "/dev/zero"], "/dev/zero: larger than 4 MB")])
    func plainFileErrors(arguments: [String], expected: String) throws {
        let folder = try TemporaryDataFolder()
        let result = try folder.run(arguments, extraEnvironment: ["RUNWALK_CONFIG_DIR": folder.configURL.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(!looksLikeCrash(result))
    }

    @Test("a replay of a file with no fixes is not a track: exit 2, nothing recorded",
          arguments: [("empty", Data()), ("random", Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) })),
                      ("text", Data("hello\nthis is not NMEA\n".utf8))])
    func notATrack(name: String, bytes: Data) throws {
        let folder = try TemporaryDataFolder()
        let file = folder.url.appendingPathComponent("\(name).nmea")
        try bytes.write(to: file)
        let result = try folder.run(["replay", file.path, "--workout", "1m run"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(file.path): not a track: no fixes found ("), "\(result.stderr)")
        let history = try folder.run(["history"])
        #expect(!history.stdout.contains("1m run"), "nothing recorded: \(history.stdout)")
    }
}
