/// The second migration: training plan enrolments and their log, and a name and a note
/// for each session. Registered after v1 (never edit either once released).
enum PlanSchema {
    static func register(in migrator: inout StoreMigrator) {
        migrator.registerMigration("v2-plans-session-names") { db in
            // Given by `runwalk session rename` and `session note`; nil until then.
            try db.execute("""
                ALTER TABLE "sessions" ADD COLUMN "name" TEXT;
                ALTER TABLE "sessions" ADD COLUMN "note" TEXT;
                """)
            // plan_json: the plan as it was when started, so editing a user plan later cannot
            // shift the progress recorded against it. start_day and stopped_day: days since
            // 1970-01-01 (UTC dates); weekdays: "mon,wed,fri"; state: active (at most one) or stopped.
            try db.execute("""
                CREATE TABLE "plan_enrolments" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "plan_name" TEXT NOT NULL, \
                "plan_json" TEXT NOT NULL, "start_day" INTEGER NOT NULL, "weekdays" TEXT NOT NULL, "state" TEXT NOT NULL, \
                "stopped_day" INTEGER);
                """)
            // kind: done, short, skip or repeat. Deleting the session deletes the entry: its plan day is due again.
            try db.execute("""
                CREATE TABLE "plan_log" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "enrolment_id" INTEGER NOT NULL REFERENCES \
                "plan_enrolments"("id") ON DELETE CASCADE, "kind" TEXT NOT NULL, "week" INTEGER NOT NULL, "day" INTEGER NOT NULL, \
                "on_day" INTEGER NOT NULL, "session_id" INTEGER REFERENCES "sessions"("id") ON DELETE CASCADE, "run_fraction" DOUBLE);
                CREATE INDEX "plan_log_by_enrolment" ON "plan_log"("enrolment_id");
                CREATE INDEX "plan_log_by_session" ON "plan_log"("session_id");
                """)
        }
    }
}
