import GRDB
import GRDBSQLite
import RunWalkCore

/// The insert statements of one transaction's fix and track-point rows, taken once from the
/// connection's statement cache and bound value by value with SQLite's own calls.
///
/// A recorded replay writes two of these rows per fix (360,000 for 5 hours at 10 Hz); through
/// GRDB's `StatementArguments` each row boxed its 13–18 values as existentials and looked the
/// statement up by its SQL text, half of the writer thread's time. GRDB still runs each
/// statement (`execute()`: its checks and transaction bookkeeping stay as they were).
struct RowStatements {
    private let db: Database
    private var fixes: Statement?
    private var trackPoints: Statement?

    init(_ db: Database) {
        self.db = db
    }

    static let fixSQL = """
        INSERT INTO fixes (session_id, at_s, time_ms, lat, lon, alt_msl, speed_mps, course_deg, mode, quality,
          hdop, sats, accepted, est_lat, est_lon, total_distance_m, est_speed_mps, pace_s_per_km)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let trackPointSQL = """
        INSERT INTO track_points (session_id, elapsed_s, time_ms, lat, lon, alt_msl, distance_m, speed_mps,
          pace_s_per_km, phase_idx, raw_lat, raw_lon, after_gap)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Inserts one fix row.
    mutating func insertFix(sessionID: Int64, atSeconds at: Double, update: TelemetryUpdate) throws {
        let statement = try Self.prepared(&fixes, db: db, sql: Self.fixSQL)
        var values = DirectBinding(statement)
        values.bind(sessionID)
        values.bind(at)
        values.bind(update.time.milliseconds)
        let raw = update.raw
        values.bindFinite(raw?.latitude)
        values.bindFinite(raw?.longitude)
        values.bindFinite(raw?.altitudeMSL)
        values.bindFinite(raw?.speedMetresPerSecond)
        values.bindFinite(raw?.courseDegrees)
        values.bind((raw?.mode?.rawValue).map(Int64.init))
        values.bind(raw?.quality.map(Int64.init))
        values.bindFinite(raw?.hdop)
        values.bind(raw?.satellitesUsed.map(Int64.init))
        values.bind(Int64(update.accepted ? 1 : 0))
        values.bindFinite(update.latitude)
        values.bindFinite(update.longitude)
        values.bind(update.distanceMetres)
        values.bindFinite(update.speedMetresPerSecond)
        values.bindFinite(update.paceSecondsPerKm)
        try statement.execute()
    }

    /// Inserts one track-point row.
    mutating func insertTrackPoint(sessionID: Int64, _ p: TrackPoint) throws {
        let statement = try Self.prepared(&trackPoints, db: db, sql: Self.trackPointSQL)
        var values = DirectBinding(statement)
        values.bind(sessionID)
        values.bind(p.elapsedSeconds)
        values.bind(p.time.milliseconds)
        values.bind(p.latitude)
        values.bind(p.longitude)
        values.bindFinite(p.altitudeMSL)
        values.bind(p.distanceMetres)
        values.bindFinite(p.speedMetresPerSecond)
        values.bindFinite(p.paceSecondsPerKm)
        values.bind(p.phaseIndex.map(Int64.init))
        values.bindFinite(p.rawLatitude)
        values.bindFinite(p.rawLongitude)
        values.bind(Int64(p.afterGap ? 1 : 0))
        try statement.execute()
    }

    /// The statement from the connection's cache, made ready for direct binding once per transaction.
    private static func prepared(_ slot: inout Statement?, db: Database, sql: String) throws -> Statement {
        if let statement = slot {
            // Binding needs a reset statement; the last row's step left it done, not reset.
            _ = sqlite3_reset(statement.sqliteStatement)
            return statement
        }
        let statement = try db.cachedStatement(sql: sql)
        // GRDB runs a statement without arguments only once its arguments are set: set them
        // once (all NULL); each row then binds over them (a reset keeps bindings until rebound).
        statement.setUncheckedArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: Int(sqlite3_bind_parameter_count(statement.sqliteStatement)))))
        slot = statement
        return statement
    }
}

/// Binds a statement's parameters in order with SQLite's calls (no boxing); NaN and infinities
/// through `bindFinite` are NULL, as `finite(_:)` stores them.
struct DirectBinding {
    private let statement: SQLiteStatement
    private var index: Int32 = 1

    init(_ statement: Statement) {
        self.statement = statement.sqliteStatement
    }

    /// Binds a double (SQLite itself stores a NaN as NULL).
    mutating func bind(_ value: Double) {
        sqlite3_bind_double(statement, index, value)
        index += 1
    }

    /// Binds an integer.
    mutating func bind(_ value: Int64) {
        sqlite3_bind_int64(statement, index, value)
        index += 1
    }

    /// Binds an integer, or NULL.
    mutating func bind(_ value: Int64?) {
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        index += 1
    }

    /// Binds a finite double, or NULL for none, NaN or an infinity.
    mutating func bindFinite(_ value: Double?) {
        if let value, value.isFinite { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        index += 1
    }
}
