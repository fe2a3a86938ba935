#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import RunWalkIO

/// Copies every session that can still be read out of a damaged database into a new one
/// (`runwalk recover --salvage`), then puts the new one in its place and keeps the damaged file
/// beside it.
///
/// Each session is copied in a savepoint of its own: a session whose rows meet a damaged page
/// is rolled back and counted lost, the others are saved whole.
public enum StoreSalvage {
    /// What the salvage saved.
    public struct Result: Sendable, Equatable {
        /// Sessions copied whole.
        public var saved: Int
        /// Sessions that could not be read whole.
        public var lost: Int
        /// Where the damaged database was moved.
        public var damagedCopy: String
        /// Of `saved`, the sessions that came from fallback databases.
        public var fromFallback: Int
    }

    /// The tables that hang off a session, in an order their references allow.
    static let sessionTables = ["phases", "fixes", "track_points", "splits", "cues", "events"]

    /// Salvages the database at `location`.
    public static func run(location: StoreLocation) throws -> Result {
        let stamp = SessionRecorder.wallMilliseconds()
        let work = StoreLocation(directory: location.directory + "/.salvage-\(stamp)")
        var saved = 0
        var lost = 0
        var fromFallback = 0
        var merged: [String] = []
        do {
            let target = try RunWalkStore(location: work)
            try target.pool.writeWithoutTransaction { db in
                try db.execute("ATTACH DATABASE ? AS damaged", [location.databasePath])
                for id in sessionIDs(db) {
                    if copy(session: id, db) { saved += 1 } else { lost += 1 }
                }
                try db.execute("DETACH DATABASE damaged")
                // Sessions recorded around the damage (StoreWriter's fallback) join them, renumbered.
                for folder in fallbackFolders(location) {
                    try db.execute("ATTACH DATABASE ? AS fallback", [folder + "/runwalk.sqlite"])
                    let ids = (try? db.values(Int64.self, "SELECT id FROM fallback.sessions ORDER BY id")) ?? []
                    for id in ids {
                        if copyRenumbered(session: id, db) { saved += 1; fromFallback += 1 } else { lost += 1 }
                    }
                    try db.execute("DETACH DATABASE fallback")
                    merged.append(folder)
                }
            }
            try target.checkpoint()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.sqlite(StoreError.describe(error), path: location.databasePath)
        }
        // The new database is closed (its WAL folded in); swap the files.
        let damaged = location.databasePath + ".damaged-\(stamp)"
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: location.databasePath + suffix) {
            guard rename(location.databasePath + suffix, damaged + suffix) == 0 else {
                throw StoreError.sqlite("cannot move the damaged database aside: \(DescriptorWriter.reason(errno))", path: location.databasePath)
            }
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: work.databasePath + suffix) {
            guard rename(work.databasePath + suffix, location.databasePath + suffix) == 0 else {
                throw StoreError.sqlite("cannot put the salvaged database in place: \(DescriptorWriter.reason(errno))", path: work.databasePath)
            }
        }
        try? FileManager.default.removeItem(atPath: work.directory)
        // Kept (renamed), not deleted: the merge is a copy.
        for folder in merged { _ = rename(folder, folder + ".merged") }
        return Result(saved: saved, lost: lost, damagedCopy: damaged, fromFallback: fromFallback)
    }

    /// The damaged file's session ids: from the table if it can be scanned, else probed one by one.
    private static func sessionIDs(_ db: SQLiteConnection) -> [Int64] {
        if let ids = try? db.values(Int64.self, "SELECT id FROM damaged.sessions ORDER BY id") { return ids }
        let highest = (try? db.value(Int64.self, "SELECT seq FROM damaged.sqlite_sequence WHERE name = 'sessions'")) ?? nil
        return (1...max(1, highest ?? 10_000)).filter { id in
            ((try? db.value(Int64.self, "SELECT id FROM damaged.sessions WHERE id = ?", [id])) ?? nil) != nil
        }
    }

    /// `fallback-MS` folders of the data folder that hold a database.
    static func fallbackFolders(_ location: StoreLocation) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: location.directory)) ?? []
        return names.filter { $0.hasPrefix("fallback-") && !$0.hasSuffix(".merged") }.sorted()
            .map { location.directory + "/" + $0 }
            .filter { FileManager.default.fileExists(atPath: $0 + "/runwalk.sqlite") }
    }

    /// Copies a fallback session under a new id (the fallback numbered its own from 1); its
    /// rows' own ids are left to the new database.
    private static func copyRenumbered(session id: Int64, _ db: SQLiteConnection) -> Bool {
        do {
            try db.savepoint {
                let sessionColumns = try columns(of: "sessions", db).filter { $0 != "id" }
                let list = sessionColumns.joined(separator: ", ")
                try db.execute("INSERT INTO main.sessions (\(list)) SELECT \(list) FROM fallback.sessions WHERE id = ?", [id])
                let newID = db.lastInsertedRowID
                for table in sessionTables {
                    let kept = try columns(of: table, db).filter { $0 != "id" && $0 != "session_id" }
                    let list = kept.joined(separator: ", ")
                    try db.execute("INSERT INTO main.\(table) (session_id, \(list)) SELECT ?, \(list) FROM fallback.\(table) WHERE session_id = ?",
                                   [newID, id])
                }
            }
            return true
        } catch {
            return false
        }
    }

    private static func columns(of table: String, _ db: SQLiteConnection) throws -> [String] {
        try db.rows("PRAGMA main.table_info(\(table))").map { try $0.get("name") as String }
    }

    /// Copies one session and its rows; false (nothing copied) when any of them cannot be read.
    private static func copy(session id: Int64, _ db: SQLiteConnection) -> Bool {
        do {
            try db.savepoint {
                try db.execute("INSERT INTO main.sessions SELECT * FROM damaged.sessions WHERE id = ?", [id])
                for table in sessionTables {
                    do {
                        try db.execute("INSERT INTO main.\(table) SELECT * FROM damaged.\(table) WHERE session_id = ?", [id])
                    } catch {
                        // A damaged index: read the table itself.
                        try db.execute("DELETE FROM main.\(table) WHERE session_id = ?", [id])
                        try db.execute("INSERT INTO main.\(table) SELECT * FROM damaged.\(table) NOT INDEXED WHERE session_id = ?",
                                       [id])
                    }
                }
            }
            return true
        } catch {
            return false
        }
    }
}
