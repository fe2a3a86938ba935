import FoundationEssentials

/// One SQLite value as stored: SQLite's five storage classes.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A Swift value that can be bound to a statement's parameter. Encodings are those the store's
/// databases were written with (by GRDB before): integers and booleans (1 or 0) as INTEGER,
/// doubles as REAL, strings as TEXT, bytes as BLOB, nil as NULL.
protocol SQLiteBindable {
    /// The value as SQLite stores it.
    var sqliteValue: SQLiteValue { get }
}

/// A Swift value that can be read from a column; nil when the stored value cannot be one.
protocol SQLiteColumnValue {
    /// The value of a non-NULL stored value (never called with `.null`).
    init?(sqliteValue: SQLiteValue)
}

extension Int64: SQLiteBindable, SQLiteColumnValue {
    var sqliteValue: SQLiteValue { .integer(self) }
    init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value
        // A REAL holding a whole number (SQLite may give either for a number column).
        case .real(let value): guard let exact = Int64(exactly: value) else { return nil }; self = exact
        default: return nil
        }
    }
}

extension Int: SQLiteBindable, SQLiteColumnValue {
    var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue) else { return nil }
        self = Int(value)
    }
}

extension Double: SQLiteBindable, SQLiteColumnValue {
    var sqliteValue: SQLiteValue { isNaN ? .null : .real(self) }
    init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Bool: SQLiteBindable, SQLiteColumnValue {
    var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value != 0
        case .real(let value): self = value != 0
        default: return nil
        }
    }
}

extension String: SQLiteBindable, SQLiteColumnValue {
    var sqliteValue: SQLiteValue { .text(self) }
    init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .text(let value): self = value
        case .blob(let bytes): self = String(decoding: bytes, as: UTF8.self)
        default: return nil
        }
    }
}

extension Data: SQLiteBindable, SQLiteColumnValue {
    var sqliteValue: SQLiteValue { .blob(self) }
    init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .blob(let bytes): self = bytes
        case .text(let text): self = Data(text.utf8)
        default: return nil
        }
    }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    var sqliteValue: SQLiteValue { map(\.sqliteValue) ?? .null }
}

/// One fetched row: its values by column name or position.
struct SQLiteRow {
    let names: [String]
    let values: [SQLiteValue]

    /// The value of column `name` (or nil: NULL, no such column, or not of type `T`).
    subscript<T: SQLiteColumnValue>(_ name: String) -> T? {
        guard let index = names.firstIndex(of: name) else { return nil }
        return self[index]
    }

    /// The value of the column at `index` (or nil: NULL, out of range, or not of type `T`).
    subscript<T: SQLiteColumnValue>(_ index: Int) -> T? {
        guard values.indices.contains(index) else { return nil }
        let value = values[index]
        if value == .null { return nil }
        return T(sqliteValue: value)
    }

    /// The value of a column that must hold one (a NOT NULL column): an error names the column
    /// otherwise, where reading it as optional would hide a damaged row.
    func get<T: SQLiteColumnValue>(_ name: String) throws -> T {
        guard let value: T = self[name] else { throw SQLiteError.unexpectedValue(column: name, type: "\(T.self)") }
        return value
    }

    /// The value of the column at `index`, which must hold one.
    func get<T: SQLiteColumnValue>(_ index: Int) throws -> T {
        guard let value: T = self[index] else { throw SQLiteError.unexpectedValue(column: "#\(index)", type: "\(T.self)") }
        return value
    }
}
