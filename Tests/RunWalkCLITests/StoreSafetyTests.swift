import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkStore
import Testing

/// Issue 31, "Data that is lost or hidden": salvage never moves a live or sound database, a newer
/// RunWalk's database is refused and left untouched, a garbage or truncated file is no dead end,
/// a read-only data folder keeps its mode, a run from a track file is dated by when it ran.
@Suite("the store: salvage, versions, damage and folder modes (end to end)", .serialized)
struct StoreSafetyTests {
    /// The bytes of the database and its WAL.
    func snapshot(_ folder: TemporaryDataFolder) -> [Data] {
        ["", "-wal"].map { FileManager.default.contents(atPath: folder.location.databasePath + $0) ?? Data() }
    }

    /// Files in the data folder whose name holds `part`.
    func files(_ folder: TemporaryDataFolder, containing part: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []).filter { $0.contains(part) }
    }

    /// Runs `sqlite3 DATABASE SQL` (the system's shell, to change a file as another program would).
    func sqlite(_ folder: TemporaryDataFolder, _ sql: String) throws {
        let result = try folder.shell("sqlite3 \"$RUNWALK_DATA_DIR/runwalk.sqlite\" \"\(sql)\"")
        guard result.status == 0 else { throw HardeningTestError(message: "sqlite3: \(result.stderr)") }
    }

    /// The newest session's state, nil while there is none.
    func state(_ folder: TemporaryDataFolder) -> StoredSessionState? {
        guard let store = try? RunWalkStore.openForReading(location: folder.location) else { return nil }
        return (try? store.sessions())?.first?.state
    }

    @Test("salvage is refused while a session records, and the session is recorded whole")
    func salvageRefusedWhileRecording() throws {
        let folder = try TemporaryDataFolder()
        let child = try folder.process(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--speed", "20"]).start()
        defer { child.stop(graceSeconds: 0) }
        // Until the session row is committed (deadline 20 s).
        let deadline = Date().addingTimeInterval(20)
        var recording = false
        while !recording, Date() < deadline, child.isRunning {
            recording = state(folder) == .recording
            if !recording { usleep(50_000) }
        }
        try #require(recording, "the replay never showed a session being recorded")
        let salvage = try folder.run(["recover", "--salvage"])
        #expect(child.isRunning, "the replay should still run")
        #expect(salvage.status == 1, "\(salvage.stdout)\(salvage.stderr)")
        #expect(salvage.stderr.contains("is being recorded"), "\(salvage.stderr)")
        #expect(files(folder, containing: ".damaged-").isEmpty, "nothing moved aside")
        #expect(child.wait(seconds: 60) == 0, "\(child.stderr)")
        let store = try RunWalkStore(location: folder.location, create: false)
        let session = try store.loadSession(.last)
        #expect(session.info.state == .closed(.completed))
        #expect(try store.sessions().count == 1)
    }

    @Test("salvage on a sound database says so and changes nothing, even with a column this build does not know")
    func salvageOnSoundDatabase() throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        try folder.recordDemo()
        try sqlite(folder, "ALTER TABLE sessions ADD COLUMN extra TEXT")
        let before = snapshot(folder)
        let salvage = try folder.run(["recover", "--salvage"])
        #expect(salvage.status == 0, "\(salvage.stderr)")
        #expect(salvage.stdout.contains("is sound (quick_check: ok): nothing to salvage; nothing was changed"), "\(salvage.stdout)")
        #expect(files(folder, containing: ".damaged-").isEmpty)
        #expect(snapshot(folder) == before)
        let history = try folder.run(["history"])
        #expect(history.status == 0)
        #expect(history.stdout.components(separatedBy: "completed").count == 3, "\(history.stdout)")
    }

    @Test("a newer RunWalk's database is refused by every command, naming both versions, and never written to",
          arguments: [["history"], ["report"], ["export", "--format", "gpx"], ["recover"], ["recover", "--salvage"],
                      ["replay", Sample.demo, "--workout", Sample.demoWorkout], ["session", "rm", "1", "--yes"]])
    func newerVersionRefused(arguments: [String]) throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        try sqlite(folder, "PRAGMA user_version = 99")
        let before = snapshot(folder)
        let result = try folder.run(arguments)
        #expect(result.status == 1, "\(arguments): \(result.stdout)")
        #expect(result.stderr.contains("written by a newer RunWalk (store version 99; this RunWalk knows versions up to 3)"),
                "\(arguments): \(result.stderr)")
        #expect(snapshot(folder) == before, "\(arguments)")
        #expect(files(folder, containing: ".damaged-").isEmpty && files(folder, containing: "fallback-").isEmpty, "\(arguments)")
    }

    @Test("a garbage database: salvage gives a new store with the sessions recorded meanwhile, the damaged file kept")
    func garbageDatabaseSalvaged() throws {
        let folder = try TemporaryDataFolder()
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: folder.location.databasePath))
        try folder.recordDemo()
        let hidden = try folder.run(["history"])
        #expect(hidden.status == 1)
        #expect(hidden.stderr.contains("1 session was recorded in fallback databases"), "\(hidden.stderr)")
        let salvage = try folder.run(["recover", "--salvage"])
        #expect(salvage.status == 0, "\(salvage.stderr)")
        #expect(salvage.stdout.contains("Salvaged 1 session (1 recorded in fallback databases), lost 0"), "\(salvage.stdout)")
        #expect(files(folder, containing: ".damaged-").count == 1, "the damaged file is kept")
        let history = try folder.run(["history"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("completed"), "\(history.stdout)")
        #expect(!history.stderr.contains("fallback"), "merged: \(history.stderr)")
        // Recording goes to the store again.
        try folder.recordDemo()
        #expect(try RunWalkStore(location: folder.location, create: false).sessions().count == 2)
    }

    @Test("a truncated database: salvage keeps what can be read and exits 0")
    func truncatedDatabaseSalvaged() throws {
        let folder = try TemporaryDataFolder()
        for _ in 0..<3 { try folder.recordDemo() }
        let path = folder.location.databasePath
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        let salvage = try folder.run(["recover", "--salvage"])
        #expect(salvage.status == 0, "\(salvage.stdout)\(salvage.stderr)")
        #expect(salvage.stdout.contains("Salvaged "), "\(salvage.stdout)")
        let history = try folder.run(["history"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(files(folder, containing: ".damaged-").count == 1)
    }

    @Test("a read-only data folder keeps its mode and can still be read", arguments: [mode_t(0o555), mode_t(0o500)])
    func readOnlyFolderKeepsItsMode(mode: mode_t) throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        #expect(chmod(folder.url.path, mode) == 0)
        defer { chmod(folder.url.path, 0o700) }
        let history = try folder.run(["history"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("completed"))
        #expect(folder.mode(folder.url.path) == mode, "the folder's mode is the user's: \(String(folder.mode(folder.url.path), radix: 8))")
    }

    @Test("a run from a track file is dated by when it ran, not by the track's date")
    func runFromFileDatedByWallClock() throws {
        let folder = try TemporaryDataFolder()
        let began = Date()
        let run = try folder.run(["run", "1m warmup", "--gps", "file:" + Sample.demo, "--speed", "50", "--start", "now",
                                  "--voice", "off", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let store = try RunWalkStore(location: folder.location, create: false)
        let info = try #require(try store.sessions().first)
        let date = Date(timeIntervalSince1970: Double(info.date.milliseconds) / 1000)
        #expect(abs(date.timeIntervalSince(began)) < 120, "dated \(date), ran at \(began)")
    }

    @Test("--voice wav:/dev/full: the session is saved and the command fails, saying so")
    func voiceToFullDevice() throws {
        let folder = try TemporaryDataFolder()
        let replay = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--voice", "wav:/dev/full", "--json"])
        #expect(replay.status == 1, "\(replay.stderr)")
        #expect(replay.stderr.contains("/dev/full"), "\(replay.stderr)")
        #expect(replay.stderr.contains("the session itself was saved"), "\(replay.stderr)")
        let store = try RunWalkStore(location: folder.location, create: false)
        #expect(try store.loadSession(.last).info.state == .closed(.completed))
    }

    @Test("a skip for every phase is filed as stopped, each phase saying it was skipped")
    func skipStormIsNotCompleted() throws {
        let folder = try TemporaryDataFolder()
        let skips = (0..<6).map { "skip@0:\(String(format: "%02d", 5 + $0))" }.joined(separator: ",")
        let replay = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--control", skips, "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let summary = try SummaryJSON.decode(replay.stdout)
        #expect(summary.state == .stopped, "\(summary.state)")
        #expect(summary.phases.allSatisfy { $0.endReason == .skipped }, "\(summary.phases.map(\.endReason))")
        let history = try folder.run(["history"])
        #expect(!history.stdout.contains("completed"), "\(history.stdout)")
    }
}
