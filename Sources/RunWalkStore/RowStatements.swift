import RunWalkCore

/// The insert statements of one transaction's fix and track-point rows, taken once from the
/// connection's statement cache and bound value by value with SQLite's own calls.
///
/// A recorded replay writes two of these rows per fix (360,000 for 5 hours at 10 Hz); bound
/// through boxed arguments each row would box its 13–18 values as existentials and look the
/// statement up by its SQL text, half of the writer thread's time when the store used GRDB.
struct RowStatements {
    private let db: SQLiteConnection
    private var fixes: SQLiteStatement?
    private var trackPoints: SQLiteStatement?

    init(_ db: SQLiteConnection) {
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
        try Self.run(statement)
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
        try Self.run(statement)
    }

    /// The statement from the connection's cache, once per transaction.
    private static func prepared(_ slot: inout SQLiteStatement?, db: SQLiteConnection, sql: String) throws -> SQLiteStatement {
        if let statement = slot { return statement }
        let statement = try db.cachedStatement(sql)
        slot = statement
        return statement
    }

    /// Runs an insert and resets it at once: binding the next row needs a reset statement, and a
    /// reset one holds nothing (the connection's cache keeps it for the next transaction).
    private static func run(_ statement: SQLiteStatement) throws {
        defer { statement.reset() }
        try statement.run()
    }
}

/// Binds a statement's parameters in order with SQLite's calls (no boxing); NaN and infinities
/// through `bindFinite` are NULL, as `finite(_:)` stores them.
struct DirectBinding {
    private let statement: SQLiteStatement
    private var index: Int32 = 1

    init(_ statement: SQLiteStatement) {
        self.statement = statement
    }

    /// Binds a double (SQLite itself stores a NaN as NULL).
    mutating func bind(_ value: Double) {
        statement.bind(value, at: index)
        index += 1
    }

    /// Binds an integer.
    mutating func bind(_ value: Int64) {
        statement.bind(value, at: index)
        index += 1
    }

    /// Binds an integer, or NULL.
    mutating func bind(_ value: Int64?) {
        if let value { statement.bind(value, at: index) } else { statement.bindNull(at: index) }
        index += 1
    }

    /// Binds a finite double, or NULL for none, NaN or an infinity.
    mutating func bindFinite(_ value: Double?) {
        if let value, value.isFinite { statement.bind(value, at: index) } else { statement.bindNull(at: index) }
        index += 1
    }
}
