import RunWalkCore

/// A stored enrolment: the plan as it was started, and what has happened since.
public struct StoredEnrolment: Sendable, Equatable {
    /// Plan, start and training days.
    public var enrolment: PlanEnrolment
    /// The plan's JSON as it was when the enrolment started.
    public var planJSON: String
    /// active or stopped.
    public var state: String
    /// What happened, oldest first.
    public var log: [PlanLogEntry]
}

/// Why a plan operation on the store could not be done.
public enum PlanStoreError: Error, Equatable, CustomStringConvertible {
    case alreadyActive(String)
    case noActivePlan

    public var description: String {
        switch self {
        case .alreadyActive(let name): return "already following plan \(name): `runwalk plan stop` first"
        case .noActivePlan: return "no plan is being followed: start one with `runwalk plan start NAME` (see `runwalk plan list`)"
        }
    }
}

extension RunWalkStore {
    /// The enrolment being followed, with its log; nil when none is active.
    public func activeEnrolment() throws -> StoredEnrolment? {
        try read { db in
            guard let row = try db.row("SELECT * FROM plan_enrolments WHERE state = 'active' ORDER BY id DESC LIMIT 1")
            else { return nil }
            return try Self.enrolment(db, row: row)
        }
    }

    /// Starts following a plan; fails when another one is active.
    @discardableResult
    public func startEnrolment(planName: String, planJSON: String, startDay: CalendarDay, weekdays: [Weekday]) throws -> Int64 {
        try write { db in
            if let active = try db.value(String.self, "SELECT plan_name FROM plan_enrolments WHERE state = 'active'") {
                throw PlanStoreError.alreadyActive(active)
            }
            try db.execute("""
                INSERT INTO plan_enrolments (plan_name, plan_json, start_day, weekdays, state) VALUES (?, ?, ?, ?, 'active')
                """, [planName, planJSON, startDay.daysSinceEpoch, weekdays.map(\.rawValue).joined(separator: ",")])
            return db.lastInsertedRowID
        }
    }

    /// Stops following the active plan (its log stays, for history).
    public func stopEnrolment(on day: CalendarDay) throws {
        try write { db in
            try db.execute("UPDATE plan_enrolments SET state = 'stopped', stopped_day = ? WHERE state = 'active'",
                           [day.daysSinceEpoch])
            if db.changesCount == 0 { throw PlanStoreError.noActivePlan }
        }
    }

    /// Appends to an enrolment's log.
    public func appendPlanLog(enrolmentID: Int64, _ entry: PlanLogEntry) throws {
        try write { db in
            try db.execute("""
                INSERT INTO plan_log (enrolment_id, kind, week, day, on_day, session_id, run_fraction) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [enrolmentID, entry.kind.rawValue, entry.slot.week, entry.slot.day, entry.day.daysSinceEpoch,
                                 entry.sessionID, entry.runFraction])
        }
    }

    /// Deletes a session and everything recorded with it (fixes, track, cues, its plan log
    /// entries); false when there is no such session.
    public func deleteSession(id: Int64) throws -> Bool {
        try write { db in
            // Foreign keys cascade only when enforced: every connection enables them when it opens
            // (the pragma is a no-op inside a transaction, so it cannot be made sure of here).
            try db.execute("DELETE FROM sessions WHERE id = ?", [id])
            return db.changesCount > 0
        }
    }

    /// Sets (or, with nil, clears) a session's name; false when there is no such session.
    public func renameSession(id: Int64, name: String?) throws -> Bool {
        try write { db in
            try db.execute("UPDATE sessions SET name = ? WHERE id = ?", [name, id])
            return db.changesCount > 0
        }
    }

    /// Sets (or clears) a session's note; false when there is no such session.
    public func setSessionNote(id: Int64, note: String?) throws -> Bool {
        try write { db in
            try db.execute("UPDATE sessions SET note = ? WHERE id = ?", [note, id])
            return db.changesCount > 0
        }
    }

    /// Each named or noted session's name and note.
    public func sessionLabels() throws -> [Int64: (name: String?, note: String?)] {
        try read { db in
            var labels: [Int64: (name: String?, note: String?)] = [:]
            for row in try db.rows("SELECT id, name, note FROM sessions WHERE name IS NOT NULL OR note IS NOT NULL") {
                labels[try row.get("id")] = (row["name"], row["note"])
            }
            return labels
        }
    }

    /// Plan log entries that name a session: which plan day each session did.
    public func planDaysBySession() throws -> [Int64: (plan: String, slot: TrainingPlan.Slot, kind: PlanLogEntry.Kind)] {
        try read { db in
            var out: [Int64: (plan: String, slot: TrainingPlan.Slot, kind: PlanLogEntry.Kind)] = [:]
            for row in try db.rows("""
                SELECT l.session_id, l.kind, l.week, l.day, e.plan_name FROM plan_log l JOIN plan_enrolments e ON e.id = l.enrolment_id
                WHERE l.session_id IS NOT NULL ORDER BY l.id
                """) {
                guard let kind = PlanLogEntry.Kind(rawValue: try row.get("kind")) else { continue }
                out[try row.get("session_id")] = (try row.get("plan_name"), TrainingPlan.Slot(week: try row.get("week"), day: try row.get("day")), kind)
            }
            return out
        }
    }

    static func enrolment(_ db: SQLiteConnection, row: SQLiteRow) throws -> StoredEnrolment {
        let id: Int64 = try row.get("id")
        let weekdays = (try row.get("weekdays") as String).split(separator: ",").compactMap { Weekday(rawValue: String($0)) }
        let log = try db.rows("SELECT * FROM plan_log WHERE enrolment_id = ? ORDER BY id", [id]).compactMap { r -> PlanLogEntry? in
            guard let kind = PlanLogEntry.Kind(rawValue: try r.get("kind")) else { return nil }
            return PlanLogEntry(kind: kind, slot: TrainingPlan.Slot(week: try r.get("week"), day: try r.get("day")),
                                day: CalendarDay(daysSinceEpoch: try r.get("on_day")), sessionID: r["session_id"], runFraction: r["run_fraction"])
        }
        return StoredEnrolment(
            enrolment: PlanEnrolment(id: id, planName: try row.get("plan_name"), startDay: CalendarDay(daysSinceEpoch: try row.get("start_day")),
                                     weekdays: weekdays),
            planJSON: try row.get("plan_json"), state: try row.get("state"), log: log)
    }
}
