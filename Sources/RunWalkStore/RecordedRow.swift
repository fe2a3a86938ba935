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
    /// One heart-rate sample, its time from the workout's start.
    case heartRate(HeartRateSample, atSeconds: Double)
    /// The receiver's time of the start, learnt from the first fix with a date.
    case startTime(UTCTime)

    /// Inserts or updates the row for session `sessionID`; fixes and track points go through
    /// the transaction's `statements` (made for the same session), which may hold them until
    /// their group is full or the transaction's rows end.
    func write(_ db: SQLiteConnection, sessionID: Int64, statements: inout RowStatements) throws {
        switch self {
        case .fix(let update, let at):
            try statements.insertFix(atSeconds: at, update: update)
        case .trackPoint(let p):
            try statements.insertTrackPoint(p)
        case .phaseStarted(let index, let at, let distance):
            try db.execute("UPDATE phases SET start_s = ?, start_distance_m = ? WHERE session_id = ? AND idx = ?",
                           [at, distance, sessionID, index])
        case .phaseEnded(let index, let end, let duration, let distance, let reason):
            try db.execute("""
                UPDATE phases SET end_s = ?, duration_s = ?, distance_m = ?, end_reason = ? WHERE session_id = ? AND idx = ?
                """, [end, duration, distance, reason.rawValue, sessionID, index])
        case .split(let split):
            try db.execute("INSERT OR REPLACE INTO splits (session_id, idx, distance_m, elapsed_s, split_s) VALUES (?, ?, ?, ?, ?)",
                           [sessionID, split.index, split.distanceMetres, split.elapsedSeconds, split.splitSeconds])
        case .cue(let cue, let at):
            try db.execute("INSERT INTO cues (session_id, at_s, kind, text) VALUES (?, ?, ?, ?)",
                           [sessionID, at, cue.kind.rawValue, cue.text])
        case .event(let kind, let at, let phase):
            try db.execute("INSERT INTO events (session_id, at_s, kind, phase_idx) VALUES (?, ?, ?, ?)",
                           [sessionID, at, kind.rawValue, phase])
        case .heartRate(let sample, let at):
            let rr = sample.rrIntervalsSeconds.isEmpty ? nil : sample.rrIntervalsSeconds.map { String($0) }.joined(separator: " ")
            try db.execute("INSERT INTO heart_rate (session_id, at_s, bpm, rr_s, from_file) VALUES (?, ?, ?, ?, ?)",
                           [sessionID, at, sample.bpm, rr, sample.fromTrackFile])
        case .startTime(let time):
            try db.execute("UPDATE sessions SET start_utc = ?, start_utc_ms = ? WHERE id = ?",
                           [time.iso8601(fractionDigits: 0), time.milliseconds, sessionID])
        }
    }
}

/// NaN and infinities are stored as NULL (SQLite has no NaN).
func finite(_ value: Double?) -> Double? {
    guard let value, value.isFinite else { return nil }
    return value
}
