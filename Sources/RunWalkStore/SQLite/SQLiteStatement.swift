import CSQLite
import FoundationEssentials

/// A prepared statement: bind its parameters, step it, read its columns. Used by one thread at a
/// time, like its connection; finalized when released.
final class SQLiteStatement {
    let handle: OpaquePointer
    /// The connection's handle, for its error messages.
    private let db: OpaquePointer
    let sql: String

    init(db: OpaquePointer, sql: String) throws {
        var statement: OpaquePointer?
        let code = sql.withCString { sqlite3_prepare_v2(db, $0, -1, &statement, nil) }
        guard code == SQLITE_OK, let statement else { throw SQLiteError(connection: db, code: code, sql: sql) }
        handle = statement
        self.db = db
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// How many `?` parameters the statement has.
    var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// Makes the statement ready to run again; its bindings stay until rebound.
    func reset() {
        // The code repeats the last step's error, which was reported when it happened.
        _ = sqlite3_reset(handle)
    }

    /// Resets the statement and binds `arguments` to its parameters in order.
    func bind(_ arguments: [any SQLiteBindable]) throws {
        reset()
        guard arguments.count == Int(parameterCount) else {
            throw SQLiteError(extendedCode: SQLITE_RANGE, message: "\(arguments.count) arguments for \(parameterCount) parameters", sql: sql)
        }
        for (offset, argument) in arguments.enumerated() {
            let code = bind(argument.sqliteValue, at: Int32(offset + 1))
            guard code == SQLITE_OK else { throw SQLiteError(connection: db, code: code, sql: sql) }
        }
    }

    /// Binds one value to parameter `index` (from 1); SQLite's result code.
    @discardableResult
    func bind(_ value: SQLiteValue, at index: Int32) -> Int32 {
        switch value {
        case .null: return sqlite3_bind_null(handle, index)
        case .integer(let integer): return sqlite3_bind_int64(handle, index, integer)
        case .real(let real): return sqlite3_bind_double(handle, index, real)
        case .text(let text):
            // The byte count, not -1: a string may hold NUL characters.
            return text.withCString { sqlite3_bind_text(handle, index, $0, Int32(text.utf8.count), csqlite_transient()) }
        case .blob(let bytes):
            // An empty blob is bound as a zero-length blob, not as NULL (a nil pointer would be NULL).
            if bytes.isEmpty { return sqlite3_bind_zeroblob(handle, index, 0) }
            return bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), csqlite_transient()) }
        }
    }

    /// Binds a double to parameter `index` (SQLite stores a NaN as NULL); the recorder's hot path.
    func bind(_ value: Double, at index: Int32) { sqlite3_bind_double(handle, index, value) }

    /// Binds an integer to parameter `index`; the recorder's hot path.
    func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }

    /// Binds NULL to parameter `index`.
    func bindNull(at index: Int32) { sqlite3_bind_null(handle, index) }

    /// Runs one step: true when a row is ready to read, false when the statement is done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            // With prepare_v2 the step's own code is the error; errmsg describes it.
            let error = SQLiteError(connection: db, code: code, sql: sql)
            _ = sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to its end, discarding any rows.
    func run() throws {
        while try step() {}
    }

    /// How many columns a row has.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of column `index` (from 0).
    func columnName(_ index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// Whether column `index` of the current row is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` of the current row as a double (0 for NULL), without boxing.
    func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Column `index` of the current row as an integer (0 for NULL), without boxing.
    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` of the current row as stored.
    func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let bytes = sqlite3_column_blob(handle, index), count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    /// The current row, copied out.
    func row(names: [String]) -> SQLiteRow {
        SQLiteRow(names: names, values: (0..<Int32(names.count)).map(value))
    }

    /// The column names of the statement's rows.
    var columnNames: [String] { (0..<columnCount).map(columnName) }
}
