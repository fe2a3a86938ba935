import Foundation
import GRDB

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
        /// `PRAGMA synchronous`: FULL keeps every commit through a power loss (a battery dying).
        public var synchronousFull = true

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
    public init(location: StoreLocation, options: Options = Options(), create: Bool = true) throws {
        self.location = location
        if create {
            do {
                try FileManager.default.createDirectory(atPath: location.directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError.cannotCreateFolder(location.directory, reason: error.localizedDescription)
            }
        } else if !location.databaseExists {
            throw StoreError.noDatabase(location.databasePath)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.label = "runwalk"
        let maxPages = options.maximumPageCount
        let synchronous = options.synchronousFull ? "FULL" : "NORMAL"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            if let maxPages { _ = try String.fetchOne(db, sql: "PRAGMA max_page_count = \(maxPages)") }
        }
        do {
            // A pool opens the file in WAL mode: readers never block the recorder's commits.
            pool = try DatabasePool(path: location.databasePath, configuration: configuration)
            try StoreSchema.migrator.migrate(pool)
        } catch {
            throw StoreError.sqlite(StoreError.describe(error), path: location.databasePath)
        }
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
        case .cannotCreateFolder(let dir, let reason): return "cannot create the data folder \(dir): \(reason)"
        case .noDatabase(let path): return "no sessions recorded yet (\(path) does not exist)"
        case .sqlite(let message, let path): return "\(path): \(message)"
        case .noSuchSession(let reference): return "no session \(reference) in the store (see `runwalk history`)"
        case .noSessions: return "no sessions recorded yet"
        case .badReference(let text): return "\"\(text)\" is not a session: give its number (from `runwalk history`) or `last`"
        }
    }

    /// Whether the error means the disk (or the database's size limit) is full.
    public var isDiskFull: Bool {
        if case .sqlite(let message, _) = self { return message.contains("SQLite error 13") }
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
