import RunWalkCore

/// Rebuilds a summary from a session's stored rows (for a session a crash left open), with the
/// core's `SummaryBuilder`, as the live session builds its own.
///
/// Phases that ended are taken as recorded; the phase running at the crash ends at the last
/// stored fix. Moving time is counted fix by fix with the session's `MovingTimeCounter`: a fix
/// counts while the workout ran, which is when it made a track point.
enum SummaryRebuilder {
    static func summary(_ db: SQLiteConnection, sessionID: Int64, state: SessionOutcome, movingSpeedThreshold: Double = 0.5) throws -> Summary {
        guard let session = try db.row("SELECT * FROM sessions WHERE id = ?", [sessionID]) else {
            throw StoreError.noSuchSession(String(sessionID))
        }
        let units = (session["units"] as String?).flatMap(Units.init(rawValue:)) ?? .metric
        let lastFix = try db.value(Double.self, "SELECT MAX(at_s) FROM fixes WHERE session_id = ?", [sessionID])
        let lastDistance = try db.value(
            Double.self, "SELECT distance_m FROM track_points WHERE session_id = ? ORDER BY id DESC LIMIT 1", [sessionID]) ?? 0
        let pauses = try pauseIntervals(db, sessionID: sessionID)
        var builder = SummaryBuilder(workoutSpec: try session.get("workout_spec"), startUTC: nil, units: units, outcome: state)

        for row in try db.rows("SELECT * FROM phases WHERE session_id = ? AND start_s IS NOT NULL ORDER BY idx", [sessionID]) {
            let start: Double = try row.get("start_s")
            let planned = Summary.Planned(durationSeconds: row["planned_duration_s"], distanceMetres: row["planned_distance_m"])
            var figures = SummaryBuilder.PhaseFigures(
                index: try row.get("idx"), kind: PhaseKind(rawValue: try row.get("kind")) ?? .run, planned: planned, startSeconds: start,
                endSeconds: (row["end_s"] as Double?) ?? max(start, lastFix ?? start), activeSeconds: 0, distanceMetres: 0,
                reason: .stopped)
            if let recorded: Double = row["duration_s"] {
                figures.activeSeconds = recorded
                figures.distanceMetres = row["distance_m"] ?? 0
                figures.reason = (row["end_reason"] as String?).flatMap(PhaseEndReason.init(rawValue:)) ?? .stopped
            } else {
                // The phase the crash interrupted: up to the last fix, less the time paused.
                let end = figures.endSeconds
                figures.activeSeconds = end - start - pauses.reduce(0) { $0 + overlap($1, start, end) }
                figures.distanceMetres = max(0, lastDistance - (row["start_distance_m"] ?? 0))
            }
            figures.activeSeconds = max(0, figures.activeSeconds)
            builder.phases.append(figures)
        }
        builder.movingSeconds = try movingSeconds(db, sessionID: sessionID, threshold: movingSpeedThreshold)
        builder.splits = try db.rows("SELECT * FROM splits WHERE session_id = ? ORDER BY idx", [sessionID]).map { row in
            Split(index: try row.get("idx"), distanceMetres: try row.get("distance_m"), elapsedSeconds: try row.get("elapsed_s"),
                  splitSeconds: try row.get("split_s"))
        }
        builder.cues = try db.rows("SELECT * FROM cues WHERE session_id = ? ORDER BY id", [sessionID]).map { row in
            Cue(atSeconds: try row.get("at_s"), text: try row.get("text"), kind: CueKind(rawValue: try row.get("kind")) ?? .transition)
        }
        let counts = try db.row("""
            SELECT COUNT(*) AS epochs, COALESCE(SUM(accepted), 0) AS used,
                   COALESCE(SUM(CASE WHEN accepted = 0 AND lat IS NOT NULL THEN 1 ELSE 0 END), 0) AS rejected
            FROM fixes WHERE session_id = ?
            """, [sessionID])
        builder.fixes = Summary.FixCounts(epochs: counts?["epochs"] ?? 0, used: counts?["used"] ?? 0,
                                          rejected: counts?["rejected"] ?? 0, linesBad: 0)
        let events = try db.rows("SELECT kind, at_s, phase_idx FROM events WHERE session_id = ? ORDER BY id",
                                 [sessionID]).compactMap { row -> SessionEventRecord? in
            guard let kind = SessionEventKind(rawValue: try row.get("kind")) else { return nil }
            return SessionEventRecord(kind: kind, atSeconds: try row.get("at_s"), phaseIndex: row["phase_idx"])
        }
        builder.events = events.isEmpty ? nil : events
        // Zones at their defaults: the settings of the run are not stored with it.
        builder.heartRate = try RunWalkStore.heartRateSamples(db, sessionID: sessionID)
        var summary = builder.build()
        // The start time is stored as the summary shows it.
        summary.startUTC = session["start_utc"]
        return summary
    }

    /// Moving time from the stored fixes, counted as the live session counts it: every used fix
    /// times a step, and a step counts when the workout ran at that fix (it made a track point,
    /// the same fix's time) and the filtered speed was at least `threshold`. Read with cursors:
    /// a long session has hundreds of thousands of fixes.
    static func movingSeconds(_ db: SQLiteConnection, sessionID: Int64, threshold: Double) throws -> Double {
        let pointTimes = try db.values(Int64.self, "SELECT time_ms FROM track_points WHERE session_id = ? ORDER BY id", [sessionID])
        var counter = MovingTimeCounter(thresholdMetresPerSecond: threshold)
        var next = 0
        try db.forEachRow("SELECT at_s, time_ms, accepted, est_speed_mps FROM fixes WHERE session_id = ? ORDER BY id",
                          [sessionID]) { row, _ in
            let time = row.int64(1)
            let running = next < pointTimes.count && pointTimes[next] == time
            if running { next += 1 }
            counter.add(atSeconds: row.double(0), used: row.int64(2) != 0, speedMetresPerSecond: row.isNull(3) ? nil : row.double(3),
                        counting: running)
        }
        return counter.seconds
    }

    /// Pause intervals (start, end) from the events; a pause never resumed runs to infinity.
    static func pauseIntervals(_ db: SQLiteConnection, sessionID: Int64) throws -> [(Double, Double)] {
        var intervals: [(Double, Double)] = []
        var pausedAt: Double?
        for row in try db.rows("SELECT kind, at_s FROM events WHERE session_id = ? AND kind IN ('pause', 'resume') ORDER BY id",
                               [sessionID]) {
            let at: Double = try row.get("at_s")
            if (row["kind"] as String?) == "pause" {
                pausedAt = at
            } else if let start = pausedAt {
                intervals.append((start, at))
                pausedAt = nil
            }
        }
        if let pausedAt { intervals.append((pausedAt, .infinity)) }
        return intervals
    }

    private static func overlap(_ interval: (Double, Double), _ start: Double, _ end: Double) -> Double {
        max(0, min(interval.1, end) - max(interval.0, start))
    }
}
