import GRDB
import RunWalkCore

/// Rebuilds a summary from a session's stored rows (for a session a crash left open).
///
/// Phases that ended are taken as recorded; the phase running at the crash ends at the last
/// stored fix. Moving time is counted between consecutive track points at walking speed or
/// faster, as the session runner counts it.
enum SummaryRebuilder {
    static func summary(_ db: Database, sessionID: Int64, state: SessionOutcome, movingSpeedThreshold: Double = 0.5) throws -> Summary {
        guard let session = try Row.fetchOne(db, sql: "SELECT * FROM sessions WHERE id = ?", arguments: [sessionID]) else {
            throw StoreError.noSuchSession(String(sessionID))
        }
        let units = Units(rawValue: session["units"]) ?? .metric
        let points = try Row.fetchAll(db, sql: "SELECT elapsed_s, distance_m, speed_mps FROM track_points WHERE session_id = ? ORDER BY id",
                                      arguments: [sessionID])
        let lastFix: Double? = try Double.fetchOne(db, sql: "SELECT MAX(at_s) FROM fixes WHERE session_id = ?", arguments: [sessionID])
        let lastDistance: Double = points.last?["distance_m"] ?? 0
        let pauses = try pauseIntervals(db, sessionID: sessionID)

        var phases: [Summary.Phase] = []
        var firstStart: Double?
        var lastEnd: Double?
        var totalMetres = 0.0   // unrounded, as the runner sums it (a sum of rounded phases can differ by 0.01)
        for row in try Row.fetchAll(db, sql: "SELECT * FROM phases WHERE session_id = ? AND start_s IS NOT NULL ORDER BY idx",
                                    arguments: [sessionID]) {
            let start: Double = row["start_s"]
            let kind = PhaseKind(rawValue: row["kind"]) ?? .run
            var duration: Double
            var distance: Double
            var reason = PhaseEndReason.stopped
            firstStart = firstStart ?? start
            lastEnd = max(lastEnd ?? start, (row["end_s"] as Double?) ?? max(start, lastFix ?? start))
            if let recorded: Double = row["duration_s"] {
                duration = recorded
                distance = row["distance_m"] ?? 0
                reason = (row["end_reason"] as String?).flatMap(PhaseEndReason.init(rawValue:)) ?? .stopped
            } else {
                // The phase the crash interrupted: up to the last fix, less the time paused.
                let end = max(start, lastFix ?? start)
                duration = end - start - pauses.reduce(0) { $0 + overlap($1, start, end) }
                distance = max(0, lastDistance - (row["start_distance_m"] ?? 0))
            }
            duration = max(0, duration)
            totalMetres += distance
            phases.append(Summary.Phase(
                index: row["idx"], kind: kind, startSeconds: Summary.rounded(start, digits: 3),
                durationSeconds: Summary.rounded(duration, digits: 3),
                planned: Summary.Planned(durationSeconds: row["planned_duration_s"], distanceMetres: row["planned_distance_m"]),
                distanceMetres: Summary.rounded(distance, digits: 2),
                averagePaceSecondsPerKm: Summary.averagePace(seconds: duration, metres: distance), endReason: reason))
        }
        let totalSeconds = phases.reduce(0) { $0 + $1.durationSeconds }

        var moving = 0.0
        for (a, b) in zip(points, points.dropFirst()) {
            let speed: Double = b["speed_mps"] ?? 0
            if speed >= movingSpeedThreshold {
                moving += max(0, min((b["elapsed_s"] as Double) - (a["elapsed_s"] as Double), 10))
            }
        }
        let splits = try Row.fetchAll(db, sql: "SELECT * FROM splits WHERE session_id = ? ORDER BY idx", arguments: [sessionID]).map { row in
            let metres: Double = row["distance_m"], seconds: Double = row["split_s"]
            return Summary.SplitEntry(index: row["idx"], distanceMetres: Summary.rounded(metres, digits: 3),
                                      elapsedSeconds: Summary.rounded(row["elapsed_s"], digits: 3),
                                      splitSeconds: Summary.rounded(seconds, digits: 3),
                                      paceSecondsPerKm: Summary.rounded(seconds / (metres / 1000), digits: 1))
        }
        let cues = try Row.fetchAll(db, sql: "SELECT * FROM cues WHERE session_id = ? ORDER BY id", arguments: [sessionID]).map { row in
            Summary.CueEntry(atSeconds: Summary.rounded(row["at_s"], digits: 3), text: row["text"],
                             kind: CueKind(rawValue: row["kind"]) ?? .transition)
        }
        let counts = try Row.fetchOne(db, sql: """
            SELECT COUNT(*) AS epochs, COALESCE(SUM(accepted), 0) AS used,
                   COALESCE(SUM(CASE WHEN accepted = 0 AND lat IS NOT NULL THEN 1 ELSE 0 END), 0) AS rejected
            FROM fixes WHERE session_id = ?
            """, arguments: [sessionID])
        let events = try Row.fetchAll(db, sql: "SELECT kind, at_s, phase_idx FROM events WHERE session_id = ? ORDER BY id",
                                      arguments: [sessionID]).compactMap { row -> SessionEventRecord? in
            guard let kind = SessionEventKind(rawValue: row["kind"]) else { return nil }
            return SessionEventRecord(kind: kind, atSeconds: Summary.rounded(row["at_s"], digits: 3), phaseIndex: row["phase_idx"])
        }
        let elapsed = max(totalSeconds, (lastEnd ?? 0) - (firstStart ?? 0))
        var summary = Summary(
            workout: session["workout_spec"], startUTC: session["start_utc"],
            durationSeconds: Summary.rounded(totalSeconds, digits: 3),
            movingTimeSeconds: Summary.rounded(min(moving, totalSeconds), digits: 3),
            elapsedSeconds: Summary.rounded(elapsed, digits: 3),
            distanceMetres: Summary.rounded(totalMetres, digits: 2),
            averagePaceSecondsPerKm: Summary.averagePace(seconds: totalSeconds, metres: totalMetres),
            state: state, units: units, phases: phases, splits: splits, cues: cues,
            fixes: Summary.FixCounts(epochs: counts?["epochs"] ?? 0, used: counts?["used"] ?? 0,
                                     rejected: counts?["rejected"] ?? 0, linesBad: 0))
        summary.events = events.isEmpty ? nil : events
        return summary
    }

    /// Pause intervals (start, end) from the events; a pause never resumed runs to infinity.
    static func pauseIntervals(_ db: Database, sessionID: Int64) throws -> [(Double, Double)] {
        var intervals: [(Double, Double)] = []
        var pausedAt: Double?
        for row in try Row.fetchAll(db, sql: "SELECT kind, at_s FROM events WHERE session_id = ? AND kind IN ('pause', 'resume') ORDER BY id",
                                    arguments: [sessionID]) {
            let at: Double = row["at_s"]
            if (row["kind"] as String) == "pause" {
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
