import GRDB
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
    /// recording, completed, stopped, incomplete or interrupted.
    public var state: String
    /// The receiver's time of the start (nil for time-only tracks).
    public var startUTC: UTCTime?
    /// The machine's wall clock when recording began.
    public var recordedWall: UTCTime
    public var distanceMetres: Double?
    public var durationSeconds: Double?
    public var averagePaceSecondsPerKm: Double?

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
}

extension RunWalkStore {
    /// Loads a closed session's summary and track (the loader reports and exports build on).
    ///
    /// A session still recording (or left open by a crash and not yet recovered) is loaded
    /// with a summary rebuilt from what was recorded so far.
    public func loadSession(_ reference: SessionReference) throws -> StoredSession {
        try read { db in
            let info = try Self.info(db, reference)
            let json: String? = try String.fetchOne(db, sql: "SELECT summary_json FROM sessions WHERE id = ?", arguments: [info.id])
            let summary: Summary
            let text: String
            if let json {
                summary = try SummaryJSON.decode(json)
                text = json
            } else {
                summary = try SummaryRebuilder.summary(db, sessionID: info.id, state: SessionOutcome(rawValue: info.state) ?? .inProgress)
                text = try SummaryJSON.encode(summary)
            }
            return StoredSession(info: info, summary: summary, summaryJSON: text, trackPoints: try Self.trackPoints(db, sessionID: info.id))
        }
    }

    /// The recorded track of session `id`, in time order.
    public func trackPoints(sessionID id: Int64) throws -> [TrackPoint] {
        try read { db in try Self.trackPoints(db, sessionID: id) }
    }

    /// How many fixes (epochs, raw and filtered) were stored for session `id`.
    public func fixCount(sessionID id: Int64) throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fixes WHERE session_id = ?", arguments: [id]) ?? 0 }
    }

    /// The latest stored fix time of session `id`, seconds from the workout's start.
    public func lastFixSeconds(sessionID id: Int64) throws -> Double? {
        try read { db in try Double.fetchOne(db, sql: "SELECT MAX(at_s) FROM fixes WHERE session_id = ?", arguments: [id]) }
    }

    /// Every session, newest first.
    public func sessions() throws -> [SessionInfo] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM sessions ORDER BY id DESC").map(Self.info(row:)) }
    }

    static func info(_ db: Database, _ reference: SessionReference) throws -> SessionInfo {
        let row: Row?
        switch reference {
        case .last: row = try Row.fetchOne(db, sql: "SELECT * FROM sessions ORDER BY id DESC LIMIT 1")
        case .id(let id): row = try Row.fetchOne(db, sql: "SELECT * FROM sessions WHERE id = ?", arguments: [id])
        }
        guard let row else {
            if reference == .last { throw StoreError.noSessions }
            throw StoreError.noSuchSession(reference.description)
        }
        return info(row: row)
    }

    static func info(row: Row) -> SessionInfo {
        let startMs: Int64? = row["start_utc_ms"]
        return SessionInfo(
            id: row["id"], workout: row["workout_spec"], source: row["source"], state: row["state"],
            startUTC: startMs.map(UTCTime.init(milliseconds:)), recordedWall: UTCTime(milliseconds: row["recorded_wall_ms"]),
            distanceMetres: row["distance_m"], durationSeconds: row["duration_s"], averagePaceSecondsPerKm: row["avg_pace_s_per_km"])
    }

    static func trackPoints(_ db: Database, sessionID: Int64) throws -> [TrackPoint] {
        // Each point's HDOP comes from its accepted fix (exports carry it so a re-imported
        // track is weighed as the original was); one pass over the session's fixes.
        var hdopByTime: [Int64: Double] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT time_ms, hdop FROM fixes WHERE session_id = ? AND accepted AND hdop IS NOT NULL",
                                    arguments: [sessionID]) {
            hdopByTime[row["time_ms"]] = row["hdop"]
        }
        return try Row.fetchAll(db, sql: "SELECT * FROM track_points WHERE session_id = ? ORDER BY id", arguments: [sessionID]).map { row in
            TrackPoint(elapsedSeconds: row["elapsed_s"], time: UTCTime(milliseconds: row["time_ms"]),
                       latitude: row["lat"], longitude: row["lon"], altitudeMSL: row["alt_msl"],
                       distanceMetres: row["distance_m"], speedMetresPerSecond: row["speed_mps"],
                       paceSecondsPerKm: row["pace_s_per_km"], phaseIndex: row["phase_idx"],
                       rawLatitude: row["raw_lat"], rawLongitude: row["raw_lon"], afterGap: row["after_gap"],
                       hdop: hdopByTime[row["time_ms"]])
        }
    }
}
