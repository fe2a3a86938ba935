#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import RunWalkCore
import RunWalkIO

/// The session store: one SQLite database in WAL mode, written by `SessionRecorder`, read by
/// history, reports and exports.
///
/// ```swift
/// let store = try RunWalkStore(location: .fromEnvironment())
/// let session = try store.loadSession(.last)   // summary and track points
/// ```
public final class RunWalkStore: Sendable {
    /// Tuning that tests and diagnostics may change.
    public struct Options: Sendable {
        /// SQLite's `max_page_count`: caps the file's size (a stand-in for a full disk in tests).
        public var maximumPageCount: Int?
        /// `PRAGMA synchronous` in WAL mode: NORMAL (ours, as GRDB set it before) syncs the WAL only
        /// at checkpoints; the recorder checkpoints every `SessionRecorder.Settings.checkpointIntervalSeconds`
        /// so that a power loss costs at most that much. FULL would sync every commit.
        public var synchronousFull = false
        /// SQLite's page cache per connection, KiB (`PRAGMA cache_size = -N`); nil: SQLite's 2000.
        public var pageCacheKibibytes: Int?

        public init(maximumPageCount: Int? = nil) {
            self.maximumPageCount = maximumPageCount
        }

        /// Options from the environment: `RUNWALK_STORE_MAX_PAGES` caps the database's pages.
        public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Options {
            Options(maximumPageCount: environment["RUNWALK_STORE_MAX_PAGES"].flatMap { Int($0) })
        }
    }

    /// Where the database is.
    public let location: StoreLocation
    let pool: StorePool

    /// Opens (creating folder and file when `create` is true) and migrates the database.
    /// A new folder (and any made on the way) is 0700 and the database 0600, whatever the
    /// umask; SQLite gives the `-wal` and `-shm` files the database's mode.
    public init(location: StoreLocation, options: Options = Options(), create: Bool = true) throws {
        self.location = location
        if create {
            do {
                try PrivateFolder.ensure(location.directory)
                try PrivateFolder.createFile(location.databasePath)
            } catch {
                throw StoreError.cannotCreateFolder(location.directory, reason: error.description)
            }
        } else if !location.databaseExists {
            throw StoreError.noDatabase(location.databasePath)
        }
        readOnly = false
        let path = location.databasePath
        do {
            // WAL: readers never block the recorder's commits. NORMAL syncs the WAL only at
            // checkpoints (the recorder's power-loss bound); FULL, a test option, every commit.
            let writer = try SQLiteConnection(path: path, readOnly: false)
            // Before anything is written (the journal mode, a migration): a newer RunWalk's file is left alone.
            try Self.refuseNewer(writer, path: path)
            try Self.prepare(writer, options)
            try writer.execute("PRAGMA journal_mode = WAL")
            try writer.execute(options.synchronousFull ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
            pool = StorePool(writer: writer) {
                let reader = try SQLiteConnection(path: path, readOnly: true)
                try Self.prepare(reader, options)
                return reader
            }
            try StoreSchema.migrator.migrate(pool)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error, path: location.databasePath)
        }
    }

    /// Throws `newerVersion` for a database a newer RunWalk wrote (its schema may hold what this
    /// build would misread or break).
    static func refuseNewer(_ db: SQLiteConnection, path: String) throws {
        let migrator = StoreSchema.migrator
        if let found = try migrator.newerVersion(db) {
            throw StoreError.newerVersion(path: path, found: found, supported: migrator.version)
        }
    }

    /// Each connection's settings (every connection's, as GRDB's `prepareDatabase` did).
    private static func prepare(_ db: SQLiteConnection, _ options: Options) throws {
        if let maxPages = options.maximumPageCount { _ = try db.value(Int.self, "PRAGMA max_page_count = \(maxPages)") }
        if let cacheKibibytes = options.pageCacheKibibytes { try db.execute("PRAGMA cache_size = -\(cacheKibibytes)") }
        // Keep the WAL small: checkpoint every 100 pages (400 KB) rather than SQLite's 1000,
        // and truncate it back to 512 KB after a checkpoint (it never shrinks otherwise).
        _ = try db.value(Int.self, "PRAGMA journal_size_limit = \(walSizeLimitBytes)")
        try db.execute("PRAGMA wal_autocheckpoint = \(walAutocheckpointPages)")
    }

    /// Opens an existing database for reading only: no migration, no checkpoint, nothing
    /// written, so a copy on read-only media (or a full disk) can be read and the file does not
    /// change. A database from before the last migration is opened read-write once to migrate it.
    public static func openForReading(location: StoreLocation, options: Options = Options()) throws -> RunWalkStore? {
        guard location.databaseExists else { return nil }
        let store = try RunWalkStore(readOnlyAt: location)
        let current = try store.read { db in try StoreSchema.migrator.hasCompletedMigrations(db) }
        return current ? store : try RunWalkStore(location: location, options: options, create: false)
    }

    private init(readOnlyAt location: StoreLocation) throws {
        self.location = location
        readOnly = true
        let path = location.databasePath
        var uri = false
        do {
            // Opened once here so that a file SQLite cannot read is an error now, not at the first read.
            try Self.refuseNewer(try Self.openReader(path, uri: false), path: path)
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError where error.resultCode == 14 && access(location.directory, W_OK) != 0 {
            // SQLITE_CANTOPEN on read-only media: SQLite cannot make the -shm a WAL reader needs.
            // Nobody can write there either, so the file is opened as immutable (no locks, no -shm).
            uri = true
            do {
                try Self.refuseNewer(try Self.openReader(Self.immutableURI(path), uri: true), path: path)
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(error, path: path)
            }
        } catch {
            throw StoreError(error, path: path)
        }
        let name = uri ? Self.immutableURI(path) : path
        pool = StorePool(writer: nil) { try Self.openReader(name, uri: uri) }
    }

    /// A read-only connection that has read the schema (where a missing -shm shows).
    private static func openReader(_ name: String, uri: Bool) throws -> SQLiteConnection {
        let reader = try SQLiteConnection(path: name, readOnly: true, uri: uri)
        _ = try reader.value(Int.self, "SELECT COUNT(*) FROM sqlite_master")
        return reader
    }

    /// `file:PATH?immutable=1`, the path's `%`, `?` and `#` escaped (Debian's SQLite reads URIs).
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                escaped += "%" + String(byte, radix: 16, uppercase: true)
            default:
                escaped += String(UnicodeScalar(byte))
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    /// `PRAGMA journal_size_limit`: the WAL is cut back to this after a checkpoint.
    static let walSizeLimitBytes = 512 * 1024
    /// `PRAGMA wal_autocheckpoint`: pages in the WAL that trigger a checkpoint.
    static let walAutocheckpointPages = 100

    /// Whether this store was opened read-only (`openForReading`).
    public let readOnly: Bool

    /// Copies the WAL into the database and syncs both (the power-loss bound); PASSIVE: never
    /// waits for readers, so a report being read does not stall the recorder.
    public func checkpoint() throws {
        try wrap { try pool.writeWithoutTransaction { db in _ = try db.rows("PRAGMA wal_checkpoint(PASSIVE)") } }
    }

    /// The leaf pages of `table` in key order (SQLite's `dbstat`), for tests that damage one.
    public func leafPages(of table: String) throws -> [Int64] {
        try wrap { try pool.read { db in
            try db.values(Int64.self, "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path", [table])
        } }
    }

    /// `PRAGMA quick_check`'s answer: `ok` for a sound file.
    public func quickCheck() throws -> String {
        try wrap { try pool.read { db in try db.values(String.self, "PRAGMA quick_check").joined(separator: "\n") } }
    }

    /// Closes the read connections kept open for the next read, and their page caches: the
    /// recorder's store reads once, for its check, and then only writes for the whole run.
    func closeIdleReaders() {
        pool.closeIdleReaders()
    }

    /// Opens the store only if its database already exists (nil otherwise).
    public static func openIfPresent(location: StoreLocation, options: Options = Options()) throws -> RunWalkStore? {
        guard location.databaseExists else { return nil }
        return try RunWalkStore(location: location, options: options, create: false)
    }

    /// `PRAGMA integrity_check`'s answer: `ok` for a sound file.
    public func integrityCheck() throws -> String {
        try wrap { try pool.read { db in try db.values(String.self, "PRAGMA integrity_check").joined(separator: "\n") } }
    }

    /// The journal mode in force (`wal`).
    public func journalMode() throws -> String {
        try wrap { try pool.read { db in try db.value(String.self, "PRAGMA journal_mode") ?? "" } }
    }

    /// The names of the migrations applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        try wrap { try pool.read { db in try StoreSchema.migrator.appliedMigrations(db) } }
    }

    /// Runs a read, turning SQLite errors into `StoreError`.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try wrap { try pool.read(body) }
    }

    /// Runs a write transaction, turning SQLite errors into `StoreError`.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try wrap { try pool.write(body) }
    }

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error, path: location.databasePath)
        }
    }
}
