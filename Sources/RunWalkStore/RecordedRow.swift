import GRDB
import RunWalkCore

/// One row the recorder has yet to write. Times are seconds from the workout's start.
enum RecordedRow: Sendable {
    case fix(TelemetryUpdate, atSeconds: Double)
    case trackPoint(TrackPoint)
    case phaseStarted(index: Int, atSeconds: Double, distanceMetres: Double)
    case phaseEnded(index: Int, endSeconds: Double, durationSeconds: Double, distanceMetres: Double, reason: PhaseEndReason)
    case split(Split)
    case cue(Cue, atSeconds: Double)
    case event(kind: SessionEventKind, atSeconds: Double, phaseIndex: Int?)
    /// The receiver's time of the start, learnt from the first fix with a date.
    case startTime(UTCTime)

    /// Inserts or updates the row for session `sessionID`.
    func write(_ db: Database, sessionID: Int64) throws {
        switch self {
        case .fix(let update, let at):
            let raw = update.raw
            try db.cachedStatement(sql: """
                INSERT INTO fixes (session_id, at_s, time_ms, lat, lon, alt_msl, speed_mps, course_deg, mode, quality,
                  hdop, sats, accepted, est_lat, est_lon, total_distance_m, est_speed_mps, pace_s_per_km)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    sessionID, at, update.time.milliseconds, finite(raw?.latitude), finite(raw?.longitude),
                    finite(raw?.altitudeMSL), finite(raw?.speedMetresPerSecond), finite(raw?.courseDegrees),
                    raw?.mode?.rawValue, raw?.quality, finite(raw?.hdop), raw?.satellitesUsed, update.accepted,
                    finite(update.latitude), finite(update.longitude), update.distanceMetres,
                    finite(update.speedMetresPerSecond), finite(update.paceSecondsPerKm),
                ])
        case .trackPoint(let p):
            try db.cachedStatement(sql: """
                INSERT INTO track_points (session_id, elapsed_s, time_ms, lat, lon, alt_msl, distance_m, speed_mps,
                  pace_s_per_km, phase_idx, raw_lat, raw_lon, after_gap)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    sessionID, p.elapsedSeconds, p.time.milliseconds, p.latitude, p.longitude, finite(p.altitudeMSL),
                    p.distanceMetres, finite(p.speedMetresPerSecond), finite(p.paceSecondsPerKm), p.phaseIndex,
                    finite(p.rawLatitude), finite(p.rawLongitude), p.afterGap,
                ])
        case .phaseStarted(let index, let at, let distance):
            try db.execute(sql: "UPDATE phases SET start_s = ?, start_distance_m = ? WHERE session_id = ? AND idx = ?",
                           arguments: [at, distance, sessionID, index])
        case .phaseEnded(let index, let end, let duration, let distance, let reason):
            try db.execute(sql: """
                UPDATE phases SET end_s = ?, duration_s = ?, distance_m = ?, end_reason = ? WHERE session_id = ? AND idx = ?
                """, arguments: [end, duration, distance, reason.rawValue, sessionID, index])
        case .split(let split):
            try db.execute(sql: "INSERT OR REPLACE INTO splits (session_id, idx, distance_m, elapsed_s, split_s) VALUES (?, ?, ?, ?, ?)",
                           arguments: [sessionID, split.index, split.distanceMetres, split.elapsedSeconds, split.splitSeconds])
        case .cue(let cue, let at):
            try db.cachedStatement(sql: "INSERT INTO cues (session_id, at_s, kind, text) VALUES (?, ?, ?, ?)")
                .execute(arguments: [sessionID, at, cue.kind.rawValue, cue.text])
        case .event(let kind, let at, let phase):
            try db.execute(sql: "INSERT INTO events (session_id, at_s, kind, phase_idx) VALUES (?, ?, ?, ?)",
                           arguments: [sessionID, at, kind.rawValue, phase])
        case .startTime(let time):
            try db.execute(sql: "UPDATE sessions SET start_utc = ?, start_utc_ms = ? WHERE id = ?",
                           arguments: [time.iso8601(fractionDigits: 0), time.milliseconds, sessionID])
        }
    }
}

/// NaN and infinities are stored as NULL (SQLite has no NaN).
func finite(_ value: Double?) -> Double? {
    guard let value, value.isFinite else { return nil }
    return value
}
