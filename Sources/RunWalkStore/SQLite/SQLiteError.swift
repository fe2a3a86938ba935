import CSQLite

/// An error SQLite reported: its result code and message, and the statement it came from.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// SQLite's extended result code (extended codes are switched on for every connection).
    public let extendedCode: Int32
    /// `sqlite3_errmsg` at the time of the failure ("database or disk is full").
    public let message: String
    /// The SQL being run, when there was one.
    public let sql: String?

    init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The error of the last failed call on connection `db`.
    init(connection db: OpaquePointer?, code: Int32, sql: String? = nil) {
        let message = sqlite3_errmsg(db).map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        self.init(extendedCode: db.map(sqlite3_extended_errcode) ?? code, message: message, sql: sql)
    }

    /// The primary result code (`SQLITE_FULL` is 13 whatever its extended variant).
    public var resultCode: Int32 { extendedCode & 0xFF }

    /// The disk (or the database's `max_page_count`) is full: SQLITE_FULL.
    public var isDiskFull: Bool { resultCode == SQLITE_FULL }

    /// SQLite found the file damaged: SQLITE_CORRUPT, or SQLITE_NOTADB (not a database at all).
    public var isCorrupt: Bool { resultCode == SQLITE_CORRUPT || resultCode == SQLITE_NOTADB }

    /// "SQLite error 13: database or disk is full" (the store's messages are built on this; the
    /// SQL stays out of what a runner reads, and is in `debugDescription`).
    public var description: String { "SQLite error \(resultCode): \(message)" }

    /// The description with the statement: "SQLite error 19: … while executing `INSERT …`".
    public var debugDescription: String { description + (sql.map { " while executing `\($0)`" } ?? "") }

    /// A column read as a type its value is not (NULL in a column that must hold a value).
    static func unexpectedValue(column: String, type: String) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISMATCH, message: "column \(column) does not hold a \(type)")
    }
}
