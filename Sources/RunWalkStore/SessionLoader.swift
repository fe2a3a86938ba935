import RunWalkCore
import RunWalkIO

/// Which session a command means: its number, or the most recent one.
public enum SessionReference: Sendable, Equatable, CustomStringConvertible {
    case last
    case id(Int64)

    /// Parses `last` or a session number as `runwalk history` prints it.
    public init(parsing text: String) throws {
        if text == "last" { self = .last; return }
        guard let id = Int64(text), id > 0 else { throw StoreError.badReference(text) }
        self = .id(id)
    }

    public var description: String {
        switch self {
        case .last: return "last"
        case .id(let id): return String(id)
        }
    }
}

/// A session's row: what was recorded and how it ended.
public struct SessionInfo: Sendable, Equatable {
    public var id: Int64
    public var workout: String
    /// `replay:PATH`, `gpsd://…`, …
    public var source: String
    /// Recording (or left open by a crash), or closed with its outcome.
    public var state: StoredSessionState
    /// The receiver's time of the start (nil for time-only tracks).
    public var startUTC: UTCTime?
    /// The machine's wall clock when recording began.
    public var recordedWall: UTCTime
    public var distanceMetres: Double?
    public var durationSeconds: Double?
    public var averagePaceSecondsPerKm: Double?
    /// The mean of the session's heart-rate samples, beats per minute; nil without any.
    public var averageHeartRateBPM: Double?

    /// The date a runner knows the session by: the receiver's start time, else when it was recorded.
    public var date: UTCTime { startUTC ?? recordedWall }
}

/// One stored session as reports and exports use it.
public struct StoredSession: Sendable {
    public var info: SessionInfo
    /// The summary, the same values `replay --json` printed.
    public var summary: Summary
    /// The summary's JSON exactly as it was printed when the session ended.
    public var summaryJSON: String
    /// The recorded track, in time order.
    public var trackPoints: [TrackPoint]
    /// The heart-rate samples, in time order (RR intervals included).
    public var heartRate: [HeartRateSample] = []
}

extension RunWalkStore {
    /// Loads a closed session's summary and track (the loader reports and exports build on).
    ///
    /// A session still recording (or left open by a crash and not yet recovered) is loaded
    /// with a summary rebuilt from what was recorded so far.
    public func loadSession(_ reference: SessionReference) throws -> StoredSession {
        try read { db in
            let info = try Self.info(db, reference)
            let json = try db.value(String.self, "SELECT summary_json FROM sessions WHERE id = ?", [info.id])
            let summary: Summary
            let text: String
            if let json {
                summary = try SummaryJSON.decode(json)
                text = json
            } else {
                summary = try SummaryRebuilder.summary(db, sessionID: info.id, state: info.state.outcome ?? .inProgress)
                text = try SummaryJSON.encode(summary)
            }
            let heartRate = try Self.heartRateSamples(db, sessionID: info.id)
            return StoredSession(info: info, summary: summary, summaryJSON: text,
                                 trackPoints: try Self.trackPoints(db, sessionID: info.id, heartRate: heartRate), heartRate: heartRate)
        }
    }

    /// The recorded track of session `id`, in time order.
    public func trackPoints(sessionID id: Int64) throws -> [TrackPoint] {
        try read { db in try Self.trackPoints(db, sessionID: id) }
    }

    /// How many fixes (epochs, raw and filtered) were stored for session `id`.
    public func fixCount(sessionID id: Int64) throws -> Int {
        try read { db in try db.value(Int.self, "SELECT COUNT(*) FROM fixes WHERE session_id = ?", [id]) ?? 0 }
    }

    /// The latest stored fix time of session `id`, seconds from the workout's start.
    public func lastFixSeconds(sessionID id: Int64) throws -> Double? {
        try read { db in try db.value(Double.self, "SELECT MAX(at_s) FROM fixes WHERE session_id = ?", [id]) }
    }

    /// Every session, newest first.
    public func sessions() throws -> [SessionInfo] {
        try read { db in
            var heartRate: [Int64: Double] = [:]
            if try Self.hasHeartRateTable(db) {
                try db.forEachRow("SELECT session_id, AVG(bpm) FROM heart_rate GROUP BY session_id") { row, _ in
                    heartRate[row.int64(0)] = row.double(1)
                }
            }
            return try db.rows("SELECT * FROM sessions ORDER BY id DESC").map { row in
                var info = try Self.info(row: row)
                info.averageHeartRateBPM = heartRate[info.id]
                return info
            }
        }
    }

    static func info(_ db: SQLiteConnection, _ reference: SessionReference) throws -> SessionInfo {
        let row: SQLiteRow?
        switch reference {
        case .last: row = try db.row("SELECT * FROM sessions ORDER BY id DESC LIMIT 1")
        case .id(let id): row = try db.row("SELECT * FROM sessions WHERE id = ?", [id])
        }
        guard let row else {
            if reference == .last { throw StoreError.noSessions }
            throw StoreError.noSuchSession(reference.description)
        }
        return try info(row: row)
    }

    static func info(row: SQLiteRow) throws -> SessionInfo {
        let startMs: Int64? = row["start_utc_ms"]
        return SessionInfo(
            id: try row.get("id"), workout: try row.get("workout_spec"), source: try row.get("source"), state: StoredSessionState(rawValue: try row.get("state")),
            startUTC: startMs.map(UTCTime.init(milliseconds:)), recordedWall: UTCTime(milliseconds: try row.get("recorded_wall_ms")),
            distanceMetres: row["distance_m"], durationSeconds: row["duration_s"], averagePaceSecondsPerKm: row["avg_pace_s_per_km"])
    }

    static func trackPoints(_ db: SQLiteConnection, sessionID: Int64, heartRate: [HeartRateSample]? = nil) throws -> [TrackPoint] {
        // Each point's HDOP comes from its accepted fix (exports carry it so a re-imported
        // track is weighed as the original was); one pass over the session's fixes.
        var hdopByTime: [Int64: Double] = [:]
        try db.forEachRow("SELECT time_ms, hdop FROM fixes WHERE session_id = ? AND accepted AND hdop IS NOT NULL",
                          [sessionID]) { row, _ in
            hdopByTime[row.int64(0)] = row.double(1)
        }
        // Read straight from the statement into points (no row copies: a long run has 180,000).
        var points: [TrackPoint] = []
        try db.forEachRow("""
            SELECT elapsed_s, time_ms, lat, lon, alt_msl, distance_m, speed_mps, pace_s_per_km, phase_idx, raw_lat, raw_lon, after_gap
            FROM track_points WHERE session_id = ? ORDER BY id
            """, [sessionID]) { row, _ in
            func optional(_ index: Int32) -> Double? { row.isNull(index) ? nil : row.double(index) }
            let time = row.int64(1)
            points.append(TrackPoint(
                elapsedSeconds: row.double(0), time: UTCTime(milliseconds: time), latitude: row.double(2), longitude: row.double(3),
                altitudeMSL: optional(4), distanceMetres: row.double(5), speedMetresPerSecond: optional(6),
                paceSecondsPerKm: optional(7), phaseIndex: row.isNull(8) ? nil : Int(row.int64(8)),
                rawLatitude: optional(9), rawLongitude: optional(10), afterGap: row.int64(11) != 0, hdop: hdopByTime[time]))
        }
        joinHeartRate(try heartRate ?? heartRateSamples(db, sessionID: sessionID), into: &points)
        return points
    }
}
