import GRDB

/// The store's schema as named, versioned migrations. Never edit a registered migration:
/// add a new one, so databases written by older builds upgrade in place.
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-sessions-phases-fixes-cues-events") { db in
            try db.create(table: "sessions") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("workout_spec", .text).notNull()
                t.column("source", .text).notNull()
                t.column("units", .text).notNull()
                t.column("get_ready_s", .double).notNull()
                // The receiver's time of the workout's start, when known (ISO 8601 and ms since 1970).
                t.column("start_utc", .text)
                t.column("start_utc_ms", .integer)
                // The machine's wall clock when recording began and ended, ms since 1970.
                t.column("recorded_wall_ms", .integer).notNull()
                t.column("ended_wall_ms", .integer)
                // recording, completed, stopped, incomplete or interrupted (closed by recovery).
                t.column("state", .text).notNull()
                // Who is recording: the name of a lock file the recording process holds.
                t.column("owner_token", .text)
                // Filled when the session is closed, for history and records.
                t.column("distance_m", .double)
                t.column("duration_s", .double)
                t.column("moving_time_s", .double)
                t.column("avg_pace_s_per_km", .double)
                t.column("best_1km_s", .double)
                t.column("best_5km_s", .double)
                t.column("summary_json", .text)
            }
            try db.create(index: "sessions_by_state", on: "sessions", columns: ["state"])
            try db.create(table: "phases") { t in
                t.column("session_id", .integer).notNull().references("sessions", onDelete: .cascade)
                t.column("idx", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("planned_duration_s", .double)
                t.column("planned_distance_m", .double)
                // As run: nil until the phase starts / ends. Seconds from the workout's start.
                t.column("start_s", .double)
                t.column("start_distance_m", .double)
                t.column("end_s", .double)
                t.column("duration_s", .double)
                t.column("distance_m", .double)
                t.column("end_reason", .text)
                t.primaryKey(["session_id", "idx"])
            }
            try db.create(table: "fixes") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("session_id", .integer).notNull().references("sessions", onDelete: .cascade)
                t.column("at_s", .double).notNull()
                t.column("time_ms", .integer).notNull()
                // Raw: what the receiver said.
                t.column("lat", .double)
                t.column("lon", .double)
                t.column("alt_msl", .double)
                t.column("speed_mps", .double)
                t.column("course_deg", .double)
                t.column("mode", .integer)
                t.column("quality", .integer)
                t.column("hdop", .double)
                t.column("sats", .integer)
                // Filtered: what the telemetry made of it.
                t.column("accepted", .boolean).notNull()
                t.column("est_lat", .double)
                t.column("est_lon", .double)
                t.column("total_distance_m", .double).notNull()
                t.column("est_speed_mps", .double)
                t.column("pace_s_per_km", .double)
            }
            try db.create(index: "fixes_by_session", on: "fixes", columns: ["session_id", "at_s"])
            try db.create(table: "track_points") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("session_id", .integer).notNull().references("sessions", onDelete: .cascade)
                t.column("elapsed_s", .double).notNull()
                t.column("time_ms", .integer).notNull()
                t.column("lat", .double).notNull()
                t.column("lon", .double).notNull()
                t.column("alt_msl", .double)
                t.column("distance_m", .double).notNull()
                t.column("speed_mps", .double)
                t.column("pace_s_per_km", .double)
                t.column("phase_idx", .integer)
                t.column("raw_lat", .double)
                t.column("raw_lon", .double)
                t.column("after_gap", .boolean).notNull()
            }
            try db.create(index: "track_points_by_session", on: "track_points", columns: ["session_id", "elapsed_s"])
            try db.create(table: "splits") { t in
                t.column("session_id", .integer).notNull().references("sessions", onDelete: .cascade)
                t.column("idx", .integer).notNull()
                t.column("distance_m", .double).notNull()
                t.column("elapsed_s", .double).notNull()
                t.column("split_s", .double).notNull()
                t.primaryKey(["session_id", "idx"])
            }
            try db.create(table: "cues") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("session_id", .integer).notNull().references("sessions", onDelete: .cascade)
                t.column("at_s", .double).notNull()
                t.column("kind", .text).notNull()
                t.column("text", .text).notNull()
            }
            try db.create(index: "cues_by_session", on: "cues", columns: ["session_id"])
            try db.create(table: "events") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("session_id", .integer).notNull().references("sessions", onDelete: .cascade)
                t.column("at_s", .double).notNull()
                // start, pause, resume, skip, gps_lost, gps_back, completed, stopped.
                t.column("kind", .text).notNull()
                t.column("phase_idx", .integer)
            }
            try db.create(index: "events_by_session", on: "events", columns: ["session_id"])
        }
        PlanSchema.register(in: &migrator)
        return migrator
    }
}
