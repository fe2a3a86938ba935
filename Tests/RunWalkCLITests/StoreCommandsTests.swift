import Foundation
import Testing
import RunWalkStore

@Suite("runwalk report, history and recover (end to end)", .serialized)
struct StoreCommandsTests {
    @Test("report --format json prints exactly what replay --json printed")
    func reportRepeatsReplayJSON() throws {
        let folder = try TemporaryDataFolder()
        let replay = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let last = try folder.run(["report", "last", "--format", "json"])
        #expect(last.status == 0)
        #expect(last.stdout == replay.stdout)
        let byNumber = try folder.run(["report", "1", "--format", "json"])
        #expect(byNumber.stdout == replay.stdout)
        let file = folder.url.appendingPathComponent("report.json")
        let written = try folder.run(["report", "--format", "json", "-o", file.path])
        #expect(written.stdout.isEmpty)
        #expect(try String(contentsOf: file, encoding: .utf8) == replay.stdout)
    }

    @Test("report as text names the session, its workout and its result")
    func reportText() throws {
        let folder = try TemporaryDataFolder()
        _ = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout])
        let report = try folder.run(["report"])
        let lines = report.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Session   1 (replay:") == true)
        #expect(lines.contains("Workout   \(Sample.demoWorkout)"))
        #expect(lines.contains("Result    completed"))
    }

    @Test("--no-record leaves no database behind")
    func noRecord() throws {
        let folder = try TemporaryDataFolder()
        let replay = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--no-record"])
        #expect(replay.status == 0)
        #expect(!folder.location.databaseExists)
        let report = try folder.run(["report"])
        #expect(report.status == 1)
        #expect(report.stderr.hasPrefix("runwalk: error: no sessions recorded yet ("))
    }

    @Test("a session reference that is not a number or `last` exits 2; an unknown number exits 1")
    func badReferences() throws {
        let folder = try TemporaryDataFolder()
        _ = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout])
        let word = try folder.run(["report", "yesterday"])
        #expect(word.status == 2)
        #expect(word.stderr == "runwalk: error: \"yesterday\" is not a session: give its number (from `runwalk history`) or `last`\n")
        let missing = try folder.run(["report", "7"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "runwalk: error: no session 7 in the store (see `runwalk history`)\n")
    }

    @Test("history lists sessions newest first, weekly totals and records")
    func history() throws {
        let folder = try TemporaryDataFolder()
        #expect(try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout]).status == 0)
        #expect(try folder.run(["replay", Sample.loop, "--workout", Sample.loopWorkout]).status == 0)
        let result = try folder.run(["history", "--weeks", "3", "--records"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("   #  date"))
        #expect(lines[1].hasPrefix("   2  2026-04-12 06:30  5m warmup, 8x(90s run, 60s walk),…"))
        #expect(lines[1].hasSuffix("completed"))
        // demo-short is 450.18 m true; the Kalman telemetry (issue 5) reads 450.06 m.
        #expect(lines[2].hasPrefix("   1  2026-04-21 19:00  1m warmup, 2x(30s run, 30s walk),…    0.45 km      4:00"))
        #expect(lines.contains("Weekly totals (weeks start on Monday, UTC)"))
        #expect(lines.filter { $0.hasPrefix("20") }.count == 3, "three week rows")
        #expect(lines.contains { $0.hasPrefix("fastest 1 km") && $0.hasSuffix("session 2, 2026-04-12") })
        #expect(lines.contains("fastest 5 km                   -"))
        #expect(lines.contains { $0.hasPrefix("longest run    ") && $0.contains("session 2") })
        #expect(lines.contains { $0.hasPrefix("longest run interval        1:30  session 2, 2026-04-12 (0.27 km)") })
    }

    @Test("a replay of what is not a track records nothing and leaves nothing for recovery")
    func failedReplay() throws {
        let folder = try TemporaryDataFolder()
        let failed = try folder.run(["replay", "SampleTracks", "--workout", "5m run"])
        #expect(failed.status == 2)
        #expect(failed.stderr.hasSuffix("runwalk: error: SampleTracks: is a directory\n"))
        let empty = try folder.run(["replay", "/dev/null", "--workout", "5m run"])
        #expect(empty.status == 2)
        #expect(empty.stderr.hasSuffix("runwalk: error: /dev/null: not a track: no fixes found (0 unrecognised lines)\n"), "\(empty.stderr)")
        let next = try folder.run(["history"])
        #expect(!next.stderr.contains("recovered"))
        #expect(!FileManager.default.fileExists(atPath: folder.location.databasePath))
    }

    @Test("recover with nothing left open says so")
    func recoverNothing() throws {
        let folder = try TemporaryDataFolder()
        let empty = try folder.run(["recover"])
        #expect(empty.stdout == "Nothing to recover: no sessions recorded yet.\n")
        _ = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout])
        let none = try folder.run(["recover"])
        #expect(none.stdout == "Nothing to recover: no session was left open.\n")
        #expect(none.stderr.isEmpty)
    }
}
