import CSQLite

/// An error SQLite reported: its result code and message, and the statement it came from.
struct SQLiteError: Error, CustomStringConvertible {
    /// SQLite's extended result code (extended codes are switched on for every connection).
    let extendedCode: Int32
    /// `sqlite3_errmsg` at the time of the failure ("database or disk is full").
    let message: String
    /// The SQL being run, when there was one.
    let sql: String?

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
    var resultCode: Int32 { extendedCode & 0xFF }

    /// "SQLite error 13: database or disk is full" (the store's messages are built on this).
    var description: String { "SQLite error \(resultCode): \(message)" }

    /// A column read as a type its value is not (NULL in a column that must hold a value).
    static func unexpectedValue(column: String, type: String) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISMATCH, message: "column \(column) does not hold a \(type)")
    }
}
