import RunWalkCore

/// The fix and track-point inserts of one transaction, bound value by value with SQLite's own
/// calls through statements from the connection's cache.
///
/// A recorded replay writes two of these rows per fix (360,000 for 5 hours at 10 Hz); bound
/// through boxed arguments each row would box its 13–18 values as existentials and look the
/// statement up by its SQL text, half of the writer thread's time when the store used GRDB.
/// Rows go `rowsPerInsert` at a time through one multi-row `INSERT … VALUES (…), (…)`: every
/// run of an insert pays for its own AUTOINCREMENT bookkeeping (a read and a write of
/// `sqlite_sequence`), transaction check and reset, which row by row came to half of
/// SQLite's time. A transaction's last rows, short of a group, go one by one; a live run
/// commits about 8 fixes at a time, so it never prepares the multi-row statements.
///
/// ```swift
/// try RowStatements.inserting(db, sessionID: id) { statements in
///     for row in rows { try row.write(db, sessionID: id, statements: &statements) }
/// }
/// ```
struct RowStatements {
    /// Rows per multi-row insert (16 × 18 parameters, far below SQLite's limit).
    static let rowsPerInsert = 16

    private let db: SQLiteConnection
    private let sessionID: Int64
    private var fixes: [(atSeconds: Double, update: TelemetryUpdate)] = []
    private var trackPoints: [TrackPoint] = []
    /// The multi-row statements, taken from the cache once per transaction.
    private var fixGroup: SQLiteStatement?
    private var trackPointGroup: SQLiteStatement?

    private init(_ db: SQLiteConnection, sessionID: Int64) {
        self.db = db
        self.sessionID = sessionID
        fixes.reserveCapacity(Self.rowsPerInsert)
        trackPoints.reserveCapacity(Self.rowsPerInsert)
    }

    /// Runs `body` with the inserts of session `sessionID`, then inserts the rows it left short of
    /// a group: every row given to them is in the transaction when this returns.
    static func inserting<T>(_ db: SQLiteConnection, sessionID: Int64, _ body: (inout RowStatements) throws -> T) throws -> T {
        var statements = RowStatements(db, sessionID: sessionID)
        let result = try body(&statements)
        try statements.insertRemainder()
        return result
    }

    /// Inserts the queued rows one by one.
    private func insertRemainder() throws {
        for (at, update) in fixes {
            try run(db.cachedStatement(Self.fixSQL)) { values in values.bindFix(sessionID: sessionID, atSeconds: at, update) }
        }
        for point in trackPoints {
            try run(db.cachedStatement(Self.trackPointSQL)) { values in values.bindTrackPoint(sessionID: sessionID, point) }
        }
    }

    /// Queues one fix row; a full group is inserted at once.
    mutating func insertFix(atSeconds at: Double, update: TelemetryUpdate) throws {
        fixes.append((at, update))
        guard fixes.count == Self.rowsPerInsert else { return }
        let statement = try fixGroup ?? db.cachedStatement(Self.fixGroupSQL)
        fixGroup = statement
        try run(statement) { values in
            for (at, update) in fixes { values.bindFix(sessionID: sessionID, atSeconds: at, update) }
        }
        fixes.removeAll(keepingCapacity: true)
    }

    /// Queues one track-point row; a full group is inserted at once.
    mutating func insertTrackPoint(_ point: TrackPoint) throws {
        trackPoints.append(point)
        guard trackPoints.count == Self.rowsPerInsert else { return }
        let statement = try trackPointGroup ?? db.cachedStatement(Self.trackPointGroupSQL)
        trackPointGroup = statement
        try run(statement) { values in
            for point in trackPoints { values.bindTrackPoint(sessionID: sessionID, point) }
        }
        trackPoints.removeAll(keepingCapacity: true)
    }

    /// Binds `statement` (from the connection's cache) through `bind`, runs it and resets it at
    /// once (a reset statement holds nothing; the cache keeps it for the next transaction).
    private func run(_ statement: SQLiteStatement, _ bind: (inout DirectBinding) -> Void) throws {
        defer { statement.reset() }
        var values = DirectBinding(statement)
        bind(&values)
        try statement.run()
    }

    static let fixSQL = insertSQL("fixes", fixColumns, rows: 1)
    static let fixGroupSQL = insertSQL("fixes", fixColumns, rows: rowsPerInsert)
    static let trackPointSQL = insertSQL("track_points", trackPointColumns, rows: 1)
    static let trackPointGroupSQL = insertSQL("track_points", trackPointColumns, rows: rowsPerInsert)

    private static let fixColumns = [
        "session_id", "at_s", "time_ms", "lat", "lon", "alt_msl", "speed_mps", "course_deg", "mode", "quality",
        "hdop", "sats", "accepted", "est_lat", "est_lon", "total_distance_m", "est_speed_mps", "pace_s_per_km",
    ]
    private static let trackPointColumns = [
        "session_id", "elapsed_s", "time_ms", "lat", "lon", "alt_msl", "distance_m", "speed_mps",
        "pace_s_per_km", "phase_idx", "raw_lat", "raw_lon", "after_gap",
    ]

    /// `INSERT INTO table (columns) VALUES (?, …), …` with `rows` rows of parameters.
    static func insertSQL(_ table: String, _ columns: [String], rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }
}

extension DirectBinding {
    /// Binds one fix row's 18 values, in `RowStatements`' column order.
    mutating func bindFix(sessionID: Int64, atSeconds at: Double, _ update: TelemetryUpdate) {
        bind(sessionID)
        bind(at)
        bind(update.time.milliseconds)
        let raw = update.raw
        bindFinite(raw?.latitude)
        bindFinite(raw?.longitude)
        bindFinite(raw?.altitudeMSL)
        bindFinite(raw?.speedMetresPerSecond)
        bindFinite(raw?.courseDegrees)
        bind((raw?.mode?.rawValue).map(Int64.init))
        bind(raw?.quality.map(Int64.init))
        bindFinite(raw?.hdop)
        bind(raw?.satellitesUsed.map(Int64.init))
        bind(Int64(update.accepted ? 1 : 0))
        bindFinite(update.latitude)
        bindFinite(update.longitude)
        bind(update.distanceMetres)
        bindFinite(update.speedMetresPerSecond)
        bindFinite(update.paceSecondsPerKm)
    }

    /// Binds one track-point row's 13 values, in `RowStatements`' column order.
    mutating func bindTrackPoint(sessionID: Int64, _ p: TrackPoint) {
        bind(sessionID)
        bind(p.elapsedSeconds)
        bind(p.time.milliseconds)
        bind(p.latitude)
        bind(p.longitude)
        bindFinite(p.altitudeMSL)
        bind(p.distanceMetres)
        bindFinite(p.speedMetresPerSecond)
        bindFinite(p.paceSecondsPerKm)
        bind(p.phaseIndex.map(Int64.init))
        bindFinite(p.rawLatitude)
        bindFinite(p.rawLongitude)
        bind(Int64(p.afterGap ? 1 : 0))
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
