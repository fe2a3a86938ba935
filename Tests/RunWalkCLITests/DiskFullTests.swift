import Foundation
import RunWalkTestSupport
import Testing
import RunWalkStore

/// A data folder on a tiny tmpfs (when this machine lets the test mount one), else a database
/// capped with SQLite's `max_page_count` — the same "database or disk is full" either way.
final class FullDisk {
    let folder: TemporaryDataFolder
    let mounted: Bool
    let extraEnvironment: [String: String]

    init(tmpfsSize: String = "256k", fallbackPages: Int = 40) throws {
        folder = try TemporaryDataFolder("runwalk-full")
        mounted = getuid() == 0 && (try? Self.command("/bin/mount", ["-t", "tmpfs", "-o", "size=\(tmpfsSize)", "tmpfs", folder.url.path])) == 0
        extraEnvironment = mounted ? [:] : ["RUNWALK_STORE_MAX_PAGES": String(fallbackPages)]
    }

    /// Grows the tmpfs (the disk gets space again); false when not mounted.
    func grow(to size: String) throws -> Bool {
        guard mounted else { return false }
        return try Self.command("/bin/mount", ["-o", "remount,size=\(size)", folder.url.path]) == 0
    }

    var how: String { mounted ? "tmpfs" : "max_page_count" }

    static func command(_ path: String, _ arguments: [String]) throws -> Int32 {
        try ChildProcess.run(path, arguments, seconds: 60).status ?? -1
    }

    deinit { if mounted { _ = try? Self.command("/bin/umount", [folder.url.path]) } }
}

@Suite("recording on a full disk (end to end)", .serialized)
struct DiskFullTests {
    @Test("the run completes, the error is said once, the file stays sound, what fits is kept, the command exits 1 naming the saved summary")
    func diskFillsMidRun() throws {
        let disk = try FullDisk()
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let result = try disk.folder.run(["replay", Sample.loop, "--workout", Sample.loopWorkout, "--speed", "1000", "--json"],
                                         extraEnvironment: disk.extraEnvironment.merging(["XDG_STATE_HOME": state.path]) { _, new in new })
        // Issue 18: a recording that failed is not a success (it exited 0 before).
        #expect(result.status == 1, "\(disk.how): \(result.stderr)")
        let saved = try #require(result.stderr.firstMatch(
            of: /recorded incompletely \(\d+ rows not saved\); its summary is saved in (\S+)\.json and the (\d+) fixes not saved in (\S+)\.nmea/))
        #expect(String(saved.1).hasPrefix(state.path + "/runwalk/unsaved-session-"))
        #expect(try String(contentsOfFile: String(saved.1) + ".json", encoding: .utf8).contains("\"epochs\" : 1801"))
        // The fixes that did not fit replay as a track of their own: together with what was kept, the whole run.
        let tail = try disk.folder.run(["fixes", String(saved.3) + ".nmea"])
        #expect(tail.status == 0)
        #expect(tail.stdout.split(separator: "\n").count == Int(saved.2))
        #expect(result.stdout.contains("\"epochs\" : 1801"), "the summary covers the whole run")
        let warnings = result.stderr.components(separatedBy: "database or disk is full").count - 1
        #expect(warnings == 1, "\(disk.how): \(result.stderr)")
        #expect(result.stderr.contains("runwalk: warning: recording incomplete: "))

        let store = try RunWalkStore(location: disk.folder.location, create: false)
        #expect(try store.integrityCheck() == "ok")
        let kept = try store.fixCount(sessionID: 1)
        let last = try #require(try store.lastFixSeconds(sessionID: 1))
        #expect(kept + (Int(saved.2) ?? 0) == 1801, "what was kept and the fallback track make the whole run")
        #expect(kept > 0 && kept < 1801, "\(disk.how): kept \(kept) fixes")
        // What is kept is the run's beginning, without holes (track-loop has one epoch a second).
        #expect(kept == Int(last.rounded()) + 1)
        print("disk full (\(disk.how)): kept \(kept) of 1801 fixes; stderr:\n\(result.stderr)")
    }

    @Test("when space comes back mid-run the rows kept in memory are written")
    func spaceComesBack() throws {
        let disk = try FullDisk()
        try #require(disk.mounted, "needs a tmpfs mount (root); the max_page_count stand-in cannot grow mid-run")
        let process = try disk.folder.process(["replay", Sample.loop, "--workout", Sample.loopWorkout, "--speed", "600"]).start()
        defer { process.stop() }
        _ = process.waitForStderr("disk is full", seconds: 30)  // at once when it comes; slack for a loaded machine
        #expect(try disk.grow(to: "16m"))
        #expect(process.wait(seconds: 120) == 0)
        let stderr = process.stderr
        #expect(stderr.contains("runwalk: recording resumed"), "\(stderr)")
        #expect(!stderr.contains("recording incomplete"), "\(stderr)")
        let store = try RunWalkStore(location: disk.folder.location, create: false)
        #expect(try store.fixCount(sessionID: 1) == 1801)
        #expect(try store.loadSession(.id(1)).info.state == .closed(.completed))
        #expect(try store.integrityCheck() == "ok")
    }
}
