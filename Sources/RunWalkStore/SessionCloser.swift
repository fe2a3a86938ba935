import RunWalkCore

/// Closes a session row: its state, the summary (as JSON, exactly as printed), and the
/// figures history and records read (distance, time, pace, best 1 km and 5 km).
enum SessionCloser {
    static func close(_ db: SQLiteConnection, sessionID: Int64, summary: Summary, summaryJSON: String, endedWallMs: Int64) throws {
        // Read with a cursor into plain pairs: a 5-hour run at 10 Hz has 180,000 points, and as
        // fetched rows they took about 45 MB at the end of a recorded replay.
        var points: [(seconds: Double, metres: Double)] = []
        try db.forEachRow("SELECT elapsed_s, distance_m FROM track_points WHERE session_id = ? ORDER BY id", [sessionID]) { row, _ in
            points.append((seconds: row.double(0), metres: row.double(1)))
        }
        try db.execute("""
            UPDATE sessions SET state = ?, ended_wall_ms = ?, distance_m = ?, duration_s = ?, moving_time_s = ?,
              avg_pace_s_per_km = ?, best_1km_s = ?, best_5km_s = ?, summary_json = ?, owner_token = NULL
            WHERE id = ?
            """, [
                summary.state.rawValue, endedWallMs, summary.distanceMetres, summary.durationSeconds, summary.movingTimeSeconds,
                summary.averagePaceSecondsPerKm, BestEffort.fastest(metres: 1000, in: points),
                BestEffort.fastest(metres: 5000, in: points), summaryJSON, sessionID,
            ])
        // The session's start as the summary has it: for a live run (even one fed from a track
        // file) the wall clock when it ran; the recording's first fix gave the track's own time.
        if let text = summary.startUTC, let start = ISO8601Time.parseZoned(text) {
            // Whole seconds in the summary: a start that agrees to the second keeps its milliseconds.
            try db.execute("""
                UPDATE sessions SET start_utc = ?, start_utc_ms = ?
                WHERE id = ? AND (start_utc_ms IS NULL OR abs(start_utc_ms - ?) >= 1000)
                """, [start.iso8601(fractionDigits: 0), start.milliseconds, sessionID, start.milliseconds])
        }
    }
}

/// The fastest time over a distance within one track (a "best effort"), interpolating the
/// start of the window between points.
public enum BestEffort {
    /// Seconds for the fastest `metres` anywhere in `points` (time, cumulative distance); nil if never covered.
    public static func fastest(metres target: Double, in points: [(seconds: Double, metres: Double)]) -> Double? {
        guard let last = points.last, let first = points.first, last.metres - first.metres >= target else { return nil }
        var best: Double?
        var i = 0
        for j in points.indices {
            let end = points[j]
            guard end.metres - first.metres >= target else { continue }
            // Move i to the last point at least `target` behind the end.
            while i + 1 < j, end.metres - points[i + 1].metres >= target { i += 1 }
            let a = points[i], b = points[i + 1]
            let startDistance = end.metres - target
            var startTime = a.seconds
            if b.metres > a.metres, startDistance > a.metres {
                startTime = a.seconds + (b.seconds - a.seconds) * min(1, (startDistance - a.metres) / (b.metres - a.metres))
            }
            let time = end.seconds - startTime
            if time > 0, best.map({ time < $0 }) ?? true { best = time }
        }
        return best
    }
}
