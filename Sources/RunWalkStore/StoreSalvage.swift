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
/// Each session is copied in a savepoint of its own. Its rows are read by the session's index,
/// else by the table; when neither reads past a damaged page, they are read in rowid ranges
/// halved around the damage, so only the rows on unreadable pages are lost and the session is
/// saved in part. A session whose own row cannot be read is counted lost.
public enum StoreSalvage {
    /// What the salvage saved.
    public struct Result: Sendable, Equatable {
        /// Sessions copied, whole or in part.
        public var saved: Int
        /// Of `saved`, the sessions some of whose rows sat on damaged pages and are lost.
        public var partly: Int = 0
        /// Sessions that could not be read whole.
        public var lost: Int
        /// Where the damaged database was moved; nil when the database was sound and left in place.
        public var damagedCopy: String?
        /// Of `saved`, the sessions that came from fallback databases.
        public var fromFallback: Int
        /// What `quick_check` said of the database before anything was done (`ok` when sound).
        public var finding: String
    }

    /// The tables that hang off a session, in an order their references allow.
    static let sessionTables = ["phases", "fixes", "track_points", "splits", "cues", "events", "heart_rate"]

    /// The most single-row reads that may fail in one table before its rest is given up (a
    /// table whose every page is unreadable would otherwise be probed row by row).
    static let unreadableRowLimit = 20_000

    /// Salvages the database at `location`. Refused while a session records (the store lock) and
    /// for a newer RunWalk's file; a sound database is left where it is (only sessions recorded in
    /// fallback databases are merged into it).
    public static func run(location: StoreLocation) throws -> Result {
        guard let storeLock = StoreLock(location: location, exclusive: true) else {
            if access(location.directory, W_OK) != 0 {
                throw StoreError.failed("the data folder cannot be written (\(DescriptorWriter.reason(errno))): nothing can be salvaged in place",
                                        path: location.databasePath)
            }
            throw StoreError.recordingNow(location.databasePath)
        }
        defer { storeLock.release() }
        let finding = try examine(location)
        if finding == "ok" { return try mergeFallbacks(into: location) }
        return try rebuild(location, finding: finding)
    }

    /// `quick_check`'s finding (`ok`, or what is wrong); throws for a newer RunWalk's file.
    static func examine(_ location: StoreLocation) throws -> String {
        do {
            let db = try SQLiteConnection(path: location.databasePath, readOnly: true)
            try RunWalkStore.refuseNewer(db, path: location.databasePath)
            return try db.values(String.self, "PRAGMA quick_check").joined(separator: "\n")
        } catch let error as StoreError {
            throw error
        } catch {
            return StoreError(error, path: location.databasePath).reason
        }
    }

    /// A sound database: the sessions of fallback databases (recorded while it was thought
    /// damaged) are copied into it; nothing else changes.
    private static func mergeFallbacks(into location: StoreLocation) throws -> Result {
        var saved = 0
        var lost = 0
        let folders = fallbackFolders(location)
        if !folders.isEmpty {
            let store = try RunWalkStore(location: location, create: false)
            try wrap(location) {
                try store.pool.writeWithoutTransaction { db in
                    for folder in folders {
                        let (copied, failed) = try merge(fallback: folder, db)
                        saved += copied
                        lost += failed
                    }
                }
            }
            try store.checkpoint()
            for folder in folders { _ = rename(folder, folder + ".merged") }
        }
        return Result(saved: saved, lost: lost, damagedCopy: nil, fromFallback: saved, finding: "ok")
    }

    /// Copies every readable session into a new database, puts it in place and keeps the damaged
    /// file beside it. A file SQLite cannot read at all (garbage, a header lost) still gives a new
    /// database, with the fallback databases' sessions, so that recording and history work again.
    private static func rebuild(_ location: StoreLocation, finding: String) throws -> Result {
        let stamp = SessionRecorder.wallMilliseconds()
        let work = StoreLocation(directory: location.directory + "/.salvage-\(stamp)")
        var saved = 0
        var partly = 0
        var lost = 0
        var fromFallback = 0
        let merged = fallbackFolders(location)
        let target = try RunWalkStore(location: work)
        try wrap(location) {
            try target.pool.writeWithoutTransaction { db in
                if (try? db.execute("ATTACH DATABASE ? AS damaged", [location.databasePath])) != nil {
                    for id in sessionIDs(db) {
                        switch copy(session: id, db) {
                        case .whole: saved += 1
                        case .inPart: saved += 1; partly += 1
                        case .lost: lost += 1
                        }
                    }
                    try db.execute("DETACH DATABASE damaged")
                }
                // Sessions recorded around the damage (StoreWriter's fallback) join them, renumbered.
                for folder in merged {
                    let (copied, failed) = try merge(fallback: folder, db)
                    saved += copied
                    fromFallback += copied
                    lost += failed
                }
            }
            try target.checkpoint()
        }
        // The new database is closed (its WAL folded in); swap the files.
        let damaged = location.databasePath + ".damaged-\(stamp)"
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: location.databasePath + suffix) {
            guard rename(location.databasePath + suffix, damaged + suffix) == 0 else {
                throw StoreError.failed("cannot move the damaged database aside: \(DescriptorWriter.reason(errno))", path: location.databasePath)
            }
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: work.databasePath + suffix) {
            guard rename(work.databasePath + suffix, location.databasePath + suffix) == 0 else {
                throw StoreError.failed("cannot put the salvaged database in place: \(DescriptorWriter.reason(errno))", path: work.databasePath)
            }
        }
        try? FileManager.default.removeItem(atPath: work.directory)
        // Kept (renamed), not deleted: the merge is a copy.
        for folder in merged { _ = rename(folder, folder + ".merged") }
        return Result(saved: saved, partly: partly, lost: lost, damagedCopy: damaged, fromFallback: fromFallback, finding: finding)
    }

    /// Copies the sessions of the fallback database in `folder` into `main`: (copied, not readable).
    private static func merge(fallback folder: String, _ db: SQLiteConnection) throws -> (Int, Int) {
        try db.execute("ATTACH DATABASE ? AS fallback", [folder + "/runwalk.sqlite"])
        defer { _ = try? db.execute("DETACH DATABASE fallback") }
        var copied = 0
        var failed = 0
        let ids = (try? db.values(Int64.self, "SELECT id FROM fallback.sessions ORDER BY id")) ?? []
        for id in ids {
            if copyRenumbered(session: id, db) { copied += 1 } else { failed += 1 }
        }
        return (copied, failed)
    }

    private static func wrap(_ location: StoreLocation, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error, path: location.databasePath)
        }
    }

    /// The damaged file's session ids: from the table if it can be scanned, else probed one by one.
    private static func sessionIDs(_ db: SQLiteConnection) -> [Int64] {
        if let ids = try? db.values(Int64.self, "SELECT id FROM damaged.sessions ORDER BY id") { return ids }
        let highest = (try? db.value(Int64.self, "SELECT seq FROM damaged.sqlite_sequence WHERE name = 'sessions'")) ?? nil
        return (1...max(1, highest ?? 10_000)).filter { id in
            ((try? db.value(Int64.self, "SELECT id FROM damaged.sessions WHERE id = ?", [id])) ?? nil) != nil
        }
    }

    /// How many sessions the fallback databases not yet merged hold (read-only; 0 when none).
    public static func fallbackSessionCount(_ location: StoreLocation) -> Int {
        fallbackFolders(location).reduce(0) { count, folder in
            let store = try? RunWalkStore.openForReading(location: StoreLocation(directory: folder))
            return count + ((try? store?.read { db in try db.value(Int.self, "SELECT COUNT(*) FROM sessions") }) ?? nil ?? 0)
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

    /// How much of a session a salvage copied.
    enum Copied { case whole, inPart, lost }

    /// Copies one session and its rows: whole, in part (rows on damaged pages lost), or nothing
    /// when the session's own row cannot be read.
    /// Columns are named (those both files have): a file with a column more or less still copies.
    private static func copy(session id: Int64, _ db: SQLiteConnection) -> Copied {
        do {
            try db.savepoint {
                let list = try shared(columns: "sessions", db).joined(separator: ", ")
                try db.execute("INSERT INTO main.sessions (\(list)) SELECT \(list) FROM damaged.sessions WHERE id = ?", [id])
                for table in sessionTables where tableExists(table, db) {
                    let list = try shared(columns: table, db).joined(separator: ", ")
                    do {
                        try db.savepoint {
                            try db.execute("INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM damaged.\(table) WHERE session_id = ?", [id])
                        }
                    } catch {
                        // A damaged index: read the table itself.
                        try db.execute("INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM damaged.\(table) NOT INDEXED WHERE session_id = ?",
                                       [id])
                    }
                }
            }
            return .whole
        } catch {
            return copyAroundDamage(session: id, db)
        }
    }

    /// The session's rows read around damaged pages: first into temporary tables, each read a
    /// statement of its own (SQLite gives up on a damaged file for the rest of a transaction once
    /// a read met a damaged page), then copied over in one savepoint.
    private static func copyAroundDamage(session id: Int64, _ db: SQLiteConnection) -> Copied {
        let tables = ["sessions"] + sessionTables.filter { tableExists($0, db) }
        defer { for table in tables { _ = try? db.execute("DROP TABLE IF EXISTS temp.salvage_\(table)") } }
        do {
            var whole = true
            var lists: [String: String] = [:]
            for table in tables {
                let list = try shared(columns: table, db).joined(separator: ", ")
                lists[table] = list
                try db.execute("DROP TABLE IF EXISTS temp.salvage_\(table)")
                try db.execute("CREATE TEMP TABLE salvage_\(table) AS SELECT \(list) FROM main.\(table) WHERE 0")
                if table == "sessions" {
                    try db.execute("INSERT INTO temp.salvage_sessions SELECT \(list) FROM damaged.sessions WHERE id = ?", [id])
                } else if !stageAroundDamage(table: table, columns: list, session: id, db) {
                    whole = false
                }
            }
            guard try db.value(Int64.self, "SELECT count(*) FROM temp.salvage_sessions") == 1 else { return .lost }
            try db.savepoint {
                for table in tables {
                    guard let list = lists[table] else { continue }
                    try db.execute("INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM temp.salvage_\(table)")
                }
            }
            return whole ? .whole : .inPart
        } catch {
            return .lost
        }
    }

    /// Reads the session's rows of `table` into its temporary table in rowid ranges, halving
    /// every range that meets a damaged page down to single rows; true when every row was read.
    private static func stageAroundDamage(table: String, columns list: String, session id: Int64, _ db: SQLiteConnection) -> Bool {
        let stage = "INSERT INTO temp.salvage_\(table) SELECT \(list) FROM damaged.\(table)"
        if (try? db.execute(stage + " NOT INDEXED WHERE session_id = ?", [id])) != nil { return true }
        // The rowid bounds come from the B-tree's two edges, which a damaged middle leaves readable.
        let low = ((try? db.value(Int64.self, "SELECT min(rowid) FROM damaged.\(table)")) ?? nil) ?? 1
        let sequence = (try? db.value(Int64.self, "SELECT seq FROM damaged.sqlite_sequence WHERE name = ?", [table])) ?? nil
        let high = ((try? db.value(Int64.self, "SELECT max(rowid) FROM damaged.\(table)")) ?? nil) ?? sequence ?? (low + 1_000_000)
        guard high >= low else { return true }
        var ranges = [(low, high)]
        var unreadable = 0
        while let (first, last) = ranges.popLast() {
            // Each statement is its own transaction: one that fails leaves nothing behind.
            if (try? db.execute(stage + " WHERE rowid BETWEEN ? AND ? AND session_id = ?", [first, last, id])) != nil { continue }
            if first == last {
                unreadable += 1
                if unreadable >= unreadableRowLimit { return false }
                continue
            }
            let middle = first + (last - first) / 2
            // The lower half first (popped last-in, first-out), so the rows keep their order.
            ranges.append((middle + 1, last))
            ranges.append((first, middle))
        }
        return unreadable == 0
    }

    /// Whether the damaged file has `table` (an older store has no heart_rate).
    private static func tableExists(_ table: String, _ db: SQLiteConnection) -> Bool {
        ((try? db.value(Int64.self, "SELECT count(*) FROM damaged.sqlite_master WHERE type = 'table' AND name = ?", [table])) ?? nil ?? 0) > 0
    }

    /// The columns of `table` in both the new database and the damaged one, quoted.
    private static func shared(columns table: String, _ db: SQLiteConnection) throws -> [String] {
        let theirs = Set(try db.rows("PRAGMA damaged.table_info(\(table))").map { try $0.get("name") as String })
        return try columns(of: table, db).filter(theirs.contains).map { "\"" + $0 + "\"" }
    }
}
