import Foundation
import GRDB
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
        /// `PRAGMA synchronous` in WAL mode: NORMAL (GRDB's choice, and ours) syncs the WAL only
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
    let pool: DatabasePool

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
        var configuration = Self.configuration()
        let maxPages = options.maximumPageCount
        let synchronousFull = options.synchronousFull
        let cacheKibibytes = options.pageCacheKibibytes
        configuration.prepareDatabase { db in
            if let maxPages { _ = try String.fetchOne(db, sql: "PRAGMA max_page_count = \(maxPages)") }
            if let cacheKibibytes { try db.execute(sql: "PRAGMA cache_size = -\(cacheKibibytes)") }
            // Keep the WAL small: checkpoint every 100 pages (400 KB) rather than SQLite's 1000,
            // and truncate it back to 512 KB after a checkpoint (it never shrinks otherwise).
            _ = try String.fetchOne(db, sql: "PRAGMA journal_size_limit = \(Self.walSizeLimitBytes)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.walAutocheckpointPages)")
            // GRDB sets NORMAL for WAL after this runs; FULL (a test option) is set per write below.
            if synchronousFull { try db.execute(sql: "PRAGMA synchronous = FULL") }
        }
        do {
            // A pool opens the file in WAL mode: readers never block the recorder's commits.
            pool = try DatabasePool(path: location.databasePath, configuration: configuration)
            if synchronousFull { try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") } }
            try StoreSchema.migrator.migrate(pool)
        } catch {
            throw StoreError.sqlite(StoreError.describe(error), path: location.databasePath)
        }
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
        var configuration = Self.configuration()
        configuration.readonly = true
        do {
            pool = try DatabasePool(path: location.databasePath, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN && access(location.directory, W_OK) != 0 {
            // Read-only media: SQLite cannot make the -shm a WAL reader needs. Nobody can write
            // there either, so the file is opened as immutable (no locks, no -shm).
            do {
                pool = try DatabasePool(path: Self.immutableURI(location.databasePath), configuration: configuration)
            } catch {
                throw StoreError.sqlite(StoreError.describe(error), path: location.databasePath)
            }
        } catch {
            throw StoreError.sqlite(StoreError.describe(error), path: location.databasePath)
        }
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

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.label = "runwalk"
        return configuration
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
        try wrap { try pool.writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(PASSIVE)") } }
    }

    /// The leaf pages of `table` in key order (SQLite's `dbstat`), for tests that damage one.
    public func leafPages(of table: String) throws -> [Int64] {
        try wrap { try pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path", arguments: [table])
        } }
    }

    /// `PRAGMA quick_check`'s answer: `ok` for a sound file.
    public func quickCheck() throws -> String {
        try wrap { try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check").joined(separator: "\n") } }
    }

    /// Opens the store only if its database already exists (nil otherwise).
    public static func openIfPresent(location: StoreLocation, options: Options = Options()) throws -> RunWalkStore? {
        guard location.databaseExists else { return nil }
        return try RunWalkStore(location: location, options: options, create: false)
    }

    /// `PRAGMA integrity_check`'s answer: `ok` for a sound file.
    public func integrityCheck() throws -> String {
        try wrap { try pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") } }
    }

    /// The journal mode in force (`wal`).
    public func journalMode() throws -> String {
        try wrap { try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" } }
    }

    /// The names of the migrations applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        try wrap { try pool.read { db in try StoreSchema.migrator.appliedMigrations(db) } }
    }

    /// Runs a read, turning SQLite errors into `StoreError`.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try wrap { try pool.read(body) }
    }

    /// Runs a write transaction, turning SQLite errors into `StoreError`.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try wrap { try pool.write(body) }
    }

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.sqlite(StoreError.describe(error), path: location.databasePath)
        }
    }
}

/// What can go wrong with the store, in words a runner can act on.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case cannotCreateFolder(String, reason: String)
    case noDatabase(String)
    case sqlite(String, path: String)
    case noSuchSession(String)
    case noSessions
    case badReference(String)

    public var description: String {
        switch self {
        case .cannotCreateFolder(let dir, let reason): return "cannot create the data folder \(UserText.path(dir)): \(reason)"
        case .noDatabase(let path): return "no sessions recorded yet (\(UserText.path(path)) does not exist)"
        case .sqlite(let message, let path): return "\(UserText.path(path)): \(message)"
        case .noSuchSession(let reference): return "no session \(reference) in the store (see `runwalk history`)"
        case .noSessions: return "no sessions recorded yet"
        case .badReference(let text): return "\"\(UserText.printable(text))\" is not a session: give its number (from `runwalk history`) or `last`"
        }
    }

    /// Whether the error means the disk (or the database's size limit) is full.
    public var isDiskFull: Bool {
        if case .sqlite(let message, _) = self { return message.contains("SQLite error 13") }
        return false
    }

    /// Whether SQLite found the file damaged (SQLITE_CORRUPT, SQLITE_NOTADB).
    public var isCorrupt: Bool {
        if case .sqlite(let message, _) = self {
            return message.contains("SQLite error 11") || message.contains("SQLite error 26") || message.contains("malformed")
        }
        return false
    }

    /// SQLite's code and message (GRDB's description: "SQLite error 13: database or disk is full - while …").
    static func describe(_ error: Error) -> String {
        if let error = error as? DatabaseError {
            return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")"
        }
        return String(describing: error)
    }
}
