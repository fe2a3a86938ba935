import GRDB

/// The second migration: training plan enrolments and their log, and a name and a note
/// for each session. Registered after v1 (never edit either once released).
enum PlanSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-plans-session-names") { db in
            try db.alter(table: "sessions") { t in
                // Given by `runwalk session rename` and `session note`; nil until then.
                t.add(column: "name", .text)
                t.add(column: "note", .text)
            }
            try db.create(table: "plan_enrolments") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("plan_name", .text).notNull()
                // The plan as it was when started (JSON), so editing a user plan later
                // cannot shift the progress recorded against it.
                t.column("plan_json", .text).notNull()
                // Days since 1970-01-01 (UTC dates).
                t.column("start_day", .integer).notNull()
                // Training days, e.g. "mon,wed,fri".
                t.column("weekdays", .text).notNull()
                // active or stopped; at most one active.
                t.column("state", .text).notNull()
                t.column("stopped_day", .integer)
            }
            try db.create(table: "plan_log") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("enrolment_id", .integer).notNull().references("plan_enrolments", onDelete: .cascade)
                // done, short, skip or repeat.
                t.column("kind", .text).notNull()
                t.column("week", .integer).notNull()
                t.column("day", .integer).notNull()
                t.column("on_day", .integer).notNull()
                // Deleting the session deletes the entry: its plan day is due again.
                t.column("session_id", .integer).references("sessions", onDelete: .cascade)
                t.column("run_fraction", .double)
            }
            try db.create(index: "plan_log_by_enrolment", on: "plan_log", columns: ["enrolment_id"])
            try db.create(index: "plan_log_by_session", on: "plan_log", columns: ["session_id"])
        }
    }
}
