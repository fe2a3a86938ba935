/// The store's schema as named, versioned migrations. Never edit a registered migration:
/// add a new one, so databases written by older builds upgrade in place.
///
/// The SQL is what GRDB generated for these migrations when the store used it (read back from a
/// database it made), so that new databases and old ones have the same schema, byte for byte.
enum StoreSchema {
    static var migrator: StoreMigrator {
        var migrator = StoreMigrator()
        migrator.registerMigration("v1-sessions-phases-fixes-cues-events") { db in
            // sessions: start_utc and start_utc_ms are the time of the workout's start (the receiver's; a live
            // run's own wall clock once closed, even when fed from a track file)
            // (ISO 8601, ms since 1970); recorded_wall_ms and ended_wall_ms the machine's clock;
            // state is recording, completed, stopped, incomplete or interrupted (closed by
            // recovery); owner_token names the lock file of the recording process; the figures
            // after it are filled when the session is closed, for history and records.
            try db.execute("""
                CREATE TABLE "sessions" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "workout_spec" TEXT NOT NULL, \
                "source" TEXT NOT NULL, "units" TEXT NOT NULL, "get_ready_s" DOUBLE NOT NULL, "start_utc" TEXT, \
                "start_utc_ms" INTEGER, "recorded_wall_ms" INTEGER NOT NULL, "ended_wall_ms" INTEGER, "state" TEXT NOT NULL, \
                "owner_token" TEXT, "distance_m" DOUBLE, "duration_s" DOUBLE, "moving_time_s" DOUBLE, "avg_pace_s_per_km" DOUBLE, \
                "best_1km_s" DOUBLE, "best_5km_s" DOUBLE, "summary_json" TEXT);
                CREATE INDEX "sessions_by_state" ON "sessions"("state");
                """)
            // phases: planned, and as run (nil until the phase starts / ends; seconds from the workout's start).
            try db.execute("""
                CREATE TABLE "phases" ("session_id" INTEGER NOT NULL REFERENCES "sessions"("id") ON DELETE CASCADE, \
                "idx" INTEGER NOT NULL, "kind" TEXT NOT NULL, "planned_duration_s" DOUBLE, "planned_distance_m" DOUBLE, \
                "start_s" DOUBLE, "start_distance_m" DOUBLE, "end_s" DOUBLE, "duration_s" DOUBLE, "distance_m" DOUBLE, \
                "end_reason" TEXT, PRIMARY KEY ("session_id", "idx"));
                """)
            // fixes: raw (what the receiver said, lat to sats), then filtered (what the telemetry made of it).
            try db.execute("""
                CREATE TABLE "fixes" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "session_id" INTEGER NOT NULL REFERENCES \
                "sessions"("id") ON DELETE CASCADE, "at_s" DOUBLE NOT NULL, "time_ms" INTEGER NOT NULL, "lat" DOUBLE, \
                "lon" DOUBLE, "alt_msl" DOUBLE, "speed_mps" DOUBLE, "course_deg" DOUBLE, "mode" INTEGER, "quality" INTEGER, \
                "hdop" DOUBLE, "sats" INTEGER, "accepted" BOOLEAN NOT NULL, "est_lat" DOUBLE, "est_lon" DOUBLE, \
                "total_distance_m" DOUBLE NOT NULL, "est_speed_mps" DOUBLE, "pace_s_per_km" DOUBLE);
                CREATE INDEX "fixes_by_session" ON "fixes"("session_id", "at_s");
                """)
            try db.execute("""
                CREATE TABLE "track_points" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "session_id" INTEGER NOT NULL REFERENCES \
                "sessions"("id") ON DELETE CASCADE, "elapsed_s" DOUBLE NOT NULL, "time_ms" INTEGER NOT NULL, \
                "lat" DOUBLE NOT NULL, "lon" DOUBLE NOT NULL, "alt_msl" DOUBLE, "distance_m" DOUBLE NOT NULL, \
                "speed_mps" DOUBLE, "pace_s_per_km" DOUBLE, "phase_idx" INTEGER, "raw_lat" DOUBLE, "raw_lon" DOUBLE, \
                "after_gap" BOOLEAN NOT NULL);
                CREATE INDEX "track_points_by_session" ON "track_points"("session_id", "elapsed_s");
                """)
            try db.execute("""
                CREATE TABLE "splits" ("session_id" INTEGER NOT NULL REFERENCES "sessions"("id") ON DELETE CASCADE, \
                "idx" INTEGER NOT NULL, "distance_m" DOUBLE NOT NULL, "elapsed_s" DOUBLE NOT NULL, "split_s" DOUBLE NOT NULL, \
                PRIMARY KEY ("session_id", "idx"));
                """)
            try db.execute("""
                CREATE TABLE "cues" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "session_id" INTEGER NOT NULL REFERENCES \
                "sessions"("id") ON DELETE CASCADE, "at_s" DOUBLE NOT NULL, "kind" TEXT NOT NULL, "text" TEXT NOT NULL);
                CREATE INDEX "cues_by_session" ON "cues"("session_id");
                """)
            // events: start, pause, resume, skip, gps_lost, gps_back, completed, stopped, …
            try db.execute("""
                CREATE TABLE "events" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "session_id" INTEGER NOT NULL REFERENCES \
                "sessions"("id") ON DELETE CASCADE, "at_s" DOUBLE NOT NULL, "kind" TEXT NOT NULL, "phase_idx" INTEGER);
                CREATE INDEX "events_by_session" ON "events"("session_id");
                """)
        }
        PlanSchema.register(in: &migrator)
        HeartRateSchema.register(in: &migrator)
        return migrator
    }
}
