import GRDB
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
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM plan_enrolments WHERE state = 'active' ORDER BY id DESC LIMIT 1")
            else { return nil }
            return try Self.enrolment(db, row: row)
        }
    }

    /// Starts following a plan; fails when another one is active.
    @discardableResult
    public func startEnrolment(planName: String, planJSON: String, startDay: CalendarDay, weekdays: [Weekday]) throws -> Int64 {
        try write { db in
            if let active = try String.fetchOne(db, sql: "SELECT plan_name FROM plan_enrolments WHERE state = 'active'") {
                throw PlanStoreError.alreadyActive(active)
            }
            try db.execute(sql: """
                INSERT INTO plan_enrolments (plan_name, plan_json, start_day, weekdays, state) VALUES (?, ?, ?, ?, 'active')
                """, arguments: [planName, planJSON, startDay.daysSinceEpoch, weekdays.map(\.rawValue).joined(separator: ",")])
            return db.lastInsertedRowID
        }
    }

    /// Stops following the active plan (its log stays, for history).
    public func stopEnrolment(on day: CalendarDay) throws {
        try write { db in
            try db.execute(sql: "UPDATE plan_enrolments SET state = 'stopped', stopped_day = ? WHERE state = 'active'",
                           arguments: [day.daysSinceEpoch])
            if db.changesCount == 0 { throw PlanStoreError.noActivePlan }
        }
    }

    /// Appends to an enrolment's log.
    public func appendPlanLog(enrolmentID: Int64, _ entry: PlanLogEntry) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO plan_log (enrolment_id, kind, week, day, on_day, session_id, run_fraction) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [enrolmentID, entry.kind.rawValue, entry.slot.week, entry.slot.day, entry.day.daysSinceEpoch,
                                 entry.sessionID, entry.runFraction])
        }
    }

    /// Deletes a session and everything recorded with it (fixes, track, cues, its plan log
    /// entries); false when there is no such session.
    public func deleteSession(id: Int64) throws -> Bool {
        try write { db in
            // Foreign keys cascade only when enforced; GRDB enables them, this makes sure.
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            try db.execute(sql: "DELETE FROM sessions WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Sets (or, with nil, clears) a session's name; false when there is no such session.
    public func renameSession(id: Int64, name: String?) throws -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE sessions SET name = ? WHERE id = ?", arguments: [name, id])
            return db.changesCount > 0
        }
    }

    /// Sets (or clears) a session's note; false when there is no such session.
    public func setSessionNote(id: Int64, note: String?) throws -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE sessions SET note = ? WHERE id = ?", arguments: [note, id])
            return db.changesCount > 0
        }
    }

    /// Each named or noted session's name and note.
    public func sessionLabels() throws -> [Int64: (name: String?, note: String?)] {
        try read { db in
            var labels: [Int64: (name: String?, note: String?)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, name, note FROM sessions WHERE name IS NOT NULL OR note IS NOT NULL") {
                labels[row["id"]] = (row["name"], row["note"])
            }
            return labels
        }
    }

    /// Plan log entries that name a session: which plan day each session did.
    public func planDaysBySession() throws -> [Int64: (plan: String, slot: TrainingPlan.Slot, kind: PlanLogEntry.Kind)] {
        try read { db in
            var out: [Int64: (plan: String, slot: TrainingPlan.Slot, kind: PlanLogEntry.Kind)] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT l.session_id, l.kind, l.week, l.day, e.plan_name FROM plan_log l JOIN plan_enrolments e ON e.id = l.enrolment_id
                WHERE l.session_id IS NOT NULL ORDER BY l.id
                """) {
                guard let kind = PlanLogEntry.Kind(rawValue: row["kind"]) else { continue }
                out[row["session_id"]] = (row["plan_name"], TrainingPlan.Slot(week: row["week"], day: row["day"]), kind)
            }
            return out
        }
    }

    static func enrolment(_ db: Database, row: Row) throws -> StoredEnrolment {
        let id: Int64 = row["id"]
        let weekdays = (row["weekdays"] as String).split(separator: ",").compactMap { Weekday(rawValue: String($0)) }
        let log = try Row.fetchAll(db, sql: "SELECT * FROM plan_log WHERE enrolment_id = ? ORDER BY id", arguments: [id]).compactMap { r -> PlanLogEntry? in
            guard let kind = PlanLogEntry.Kind(rawValue: r["kind"]) else { return nil }
            return PlanLogEntry(kind: kind, slot: TrainingPlan.Slot(week: r["week"], day: r["day"]),
                                day: CalendarDay(daysSinceEpoch: r["on_day"]), sessionID: r["session_id"], runFraction: r["run_fraction"])
        }
        return StoredEnrolment(
            enrolment: PlanEnrolment(id: id, planName: row["plan_name"], startDay: CalendarDay(daysSinceEpoch: row["start_day"]),
                                     weekdays: weekdays),
            planJSON: row["plan_json"], state: row["state"], log: log)
    }
}
