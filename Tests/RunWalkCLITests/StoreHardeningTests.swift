import Foundation
import Testing
import RunWalkStore

/// Issue 18, "Storage": reading commands write nothing, a database that cannot be opened is
/// said so, a damaged one is checked and salvaged.
@Suite("the store under hostile conditions (end to end)", .serialized)
struct StoreHardeningTests {
    /// The bytes of the database and its WAL.
    /// (A reader may leave an empty `-wal` where there was none: no content, nothing written.)
    func snapshot(_ folder: TemporaryDataFolder) -> [Data] {
        ["", "-wal"].map { FileManager.default.contents(atPath: folder.location.databasePath + $0) ?? Data() }
    }

    @Test("history, report and export change nothing in the database (no migration, no checkpoint)")
    func readersWriteNothing() throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        let before = snapshot(folder)
        for arguments in [["history", "--records", "--weeks", "2"], ["report"], ["report", "--format", "html"], ["export", "--format", "gpx"]] {
            let result = try folder.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(snapshot(folder) == before)
    }

    @Test("a database on read-only media can be read")
    func readOnlyMedia() throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        let mountPoint = folder.url.appendingPathComponent("readonly")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let data = folder.url.path
        guard getuid() == 0, try FullDisk.command("/bin/mount", ["--bind", data, mountPoint.path]) == 0 else {
            print("skipped: a read-only bind mount needs root")
            return
        }
        defer { _ = try? FullDisk.command("/bin/umount", [mountPoint.path]) }
        #expect(try FullDisk.command("/bin/mount", ["-o", "remount,ro,bind", mountPoint.path]) == 0)
        let result = try folder.run(["history"], extraEnvironment: ["RUNWALK_DATA_DIR": mountPoint.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("completed"))
    }

    @Test("recover says why a database cannot be opened")
    func recoverSaysWhy() throws {
        let folder = try TemporaryDataFolder()
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: folder.location.databasePath))
        let result = try folder.run(["recover"])
        #expect(result.status == 1)
        #expect(!result.stdout.contains("no sessions recorded yet"))
        #expect(result.stderr.contains("runwalk.sqlite"), "\(result.stderr)")
        #expect(result.stderr.contains("not a database") || result.stderr.contains("damaged"), "\(result.stderr)")
    }

    @Test("a damaged page: the command says so after quick_check, and --salvage keeps every readable session")
    func damagedAndSalvaged() throws {
        let folder = try TemporaryDataFolder()
        for _ in 0..<3 { try folder.recordDemo() }
        // Overwrite one leaf page of the track points (what an export reads) (a session's rows) with garbage.
        let page: Int64 = try {
            let store = try #require(try RunWalkStore.openIfPresent(location: folder.location))
            return try store.leafPages(of: "track_points")[1]
        }()
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: folder.location.databasePath))
        try handle.seek(toOffset: UInt64((page - 1) * 4096))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()

        let export = try folder.run(["export", "1", "--format", "gpx"])
        #expect(export.status == 1)
        #expect(export.stderr.contains("is damaged (quick_check: "), "\(export.stderr)")
        #expect(export.stderr.contains("runwalk recover --salvage"))

        // A new recording does not go into the damaged file: it goes to a fallback, said once.
        let record = try folder.run(["replay", Sample.demo, "--workout", Sample.demoWorkout])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.components(separatedBy: "is damaged (quick_check: ").count == 2, "\(record.stderr)")
        let fallback = try #require(record.stderr.firstMatch(of: /recorded in (\S+\/fallback-\d+\/runwalk\.sqlite) instead/))
        let rescued = try RunWalkStore(location: StoreLocation(directory: String(fallback.1).replacingOccurrences(of: "/runwalk.sqlite", with: "")),
                                       create: false)
        #expect(try rescued.sessions().count == 1)

        let salvage = try folder.run(["recover", "--salvage"])
        #expect(salvage.status == 0, "\(salvage.stderr)")
        let saved = try #require(salvage.stdout.firstMatch(of: /Salvaged (\d+) sessions? \(1 recorded in fallback databases\), (\d+) of them in part \(the rows on damaged pages are lost\), lost (\d+)/))
        // Three sessions in the damaged file (one of them with track points on the damaged page,
        // saved without that page's rows) and one in the fallback: none lost whole.
        #expect(saved.1 == "4" && saved.2 == "1" && saved.3 == "0", "\(salvage.stdout)")
        let store = try RunWalkStore(location: folder.location, create: false)
        #expect(try store.integrityCheck() == "ok")
        #expect(try store.sessions().count == Int(saved.1))
        let history = try folder.run(["history"])
        #expect(history.status == 0)
    }
}
