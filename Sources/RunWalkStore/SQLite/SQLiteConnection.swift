import CSQLite
import FoundationEssentials

/// One connection to a SQLite database, used by one thread at a time (the store's pool hands it
/// out under a lock). Statements run with arguments come from a cache of prepared statements, so
/// the recorder's inserts are prepared once per connection.
final class SQLiteConnection {
    let handle: OpaquePointer
    /// The path (or URI) it was opened with.
    let path: String
    let readOnly: Bool
    private var cache: [String: SQLiteStatement] = [:]

    /// How long a statement waits for another connection's lock before failing with SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 5000

    /// Opens `path` read-write (creating the file) or read-only; `uri` reads `path` as a
    /// `file:` URI (`?immutable=1`). Foreign keys are enforced (the schema's cascades rely on it).
    init(path: String, readOnly: Bool, uri: Bool = false) throws {
        var db: OpaquePointer?
        var flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // The pool never shares a connection between threads at once: SQLite's own mutex is not needed.
        flags |= SQLITE_OPEN_NOMUTEX
        if uri { flags |= SQLITE_OPEN_URI }
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError(connection: db, code: code)
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        self.path = path
        self.readOnly = readOnly
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        // Statements first: closing with statements alive would leave a zombie connection.
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL without arguments (several statements allowed), discarding rows.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Runs one statement with `arguments` bound to its `?` parameters, discarding rows.
    func execute(_ sql: String, _ arguments: [any SQLiteBindable]) throws {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        try statement.run()
    }

    /// The prepared statement for `sql` from the connection's cache (prepared on first use).
    /// The caller resets it when done, so that it holds no read lock.
    func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        if let statement = cache[sql] { return statement }
        let statement = try SQLiteStatement(db: handle, sql: sql)
        cache[sql] = statement
        return statement
    }

    /// Every row of a query.
    func rows(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> [SQLiteRow] {
        var rows: [SQLiteRow] = []
        try forEachRow(sql, arguments) { statement, names in rows.append(statement.row(names: names)) }
        return rows
    }

    /// The first row of a query, or nil.
    func row(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> SQLiteRow? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? statement.row(names: statement.columnNames) : nil
    }

    /// The first column of the first row, or nil (no row, NULL, or not a `T`).
    func value<T: SQLiteColumnValue>(_ type: T.Type, _ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> T? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        let value = statement.value(0)
        return value == .null ? nil : T(sqliteValue: value)
    }

    /// The first column of every row; NULLs and values that are not a `T` are left out.
    func values<T: SQLiteColumnValue>(_ type: T.Type, _ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> [T] {
        var values: [T] = []
        try forEachRow(sql, arguments) { statement, _ in
            let value = statement.value(0)
            if value != .null, let typed = T(sqliteValue: value) { values.append(typed) }
        }
        return values
    }

    /// Steps through a query's rows without copying them all: `body` reads the current row from
    /// the statement (a long session has hundreds of thousands of fixes).
    func forEachRow(_ sql: String, _ arguments: [any SQLiteBindable] = [],
                    _ body: (SQLiteStatement, [String]) throws -> Void) throws {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        let names = statement.columnNames
        while try statement.step() { try body(statement, names) }
    }

    /// The rowid of the last row inserted through this connection.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changesCount: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open.
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a transaction (IMMEDIATE for writers: the write lock is taken at BEGIN,
    /// so a busy database fails or waits there, never halfway); rolled back when anything throws.
    func transaction<T>(_ kind: TransactionKind, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue)")
        do {
            let result = try body(self)
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT (disk full) may have rolled back already; a second ROLLBACK would fail.
            if inTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// The kinds of transaction the store opens.
    enum TransactionKind: String {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in a savepoint: released when it returns, rolled back (only it) when it throws.
    /// Outside a transaction it is a transaction of its own: a ROLLBACK always ends it, where a
    /// ROLLBACK TO on a damaged file may fail and leave the savepoint open.
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        if !inTransaction { return try transaction(.deferred) { _ in try body() } }
        try execute("SAVEPOINT runwalk")
        do {
            let result = try body()
            try execute("RELEASE runwalk")
            return result
        } catch {
            try? execute("ROLLBACK TO runwalk")
            try? execute("RELEASE runwalk")
            throw error
        }
    }
}
