import RunWalkCore

/// The third migration: heart-rate samples (issue 32), each with its own time, written as they
/// come like fixes. Registered after v2 (never edit it once released).
enum HeartRateSchema {
    static func register(in migrator: inout StoreMigrator) {
        migrator.registerMigration("v3-heart-rate") { db in
            // at_s: seconds from the workout's start (as fixes); bpm: a plausible heart rate (no
            // row is "no heart rate"); rr_s: the RR intervals sent with it, seconds, space-separated;
            // from_file: read with a fix of a track file (it belongs to that fix's point only).
            try db.execute("""
                CREATE TABLE "heart_rate" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "session_id" INTEGER NOT NULL REFERENCES \
                "sessions"("id") ON DELETE CASCADE, "at_s" DOUBLE NOT NULL, "bpm" INTEGER NOT NULL, "rr_s" TEXT, \
                "from_file" BOOLEAN NOT NULL DEFAULT 0);
                CREATE INDEX "heart_rate_by_session" ON "heart_rate"("session_id", "at_s");
                """)
        }
    }
}

extension RunWalkStore {
    /// The heart-rate samples of session `id`, seconds from the workout's start, in time order.
    public func heartRateSamples(sessionID id: Int64) throws -> [HeartRateSample] {
        try read { db in try Self.heartRateSamples(db, sessionID: id) }
    }

    /// Whether the database has the heart-rate table (a database from before v3 that could not be
    /// migrated, on read-only media, has none: it then has no heart rate).
    static func hasHeartRateTable(_ db: SQLiteConnection) throws -> Bool {
        try db.value(Int.self, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'heart_rate'") == 1
    }

    static func heartRateSamples(_ db: SQLiteConnection, sessionID: Int64) throws -> [HeartRateSample] {
        var samples: [HeartRateSample] = []
        guard try hasHeartRateTable(db) else { return samples }
        try db.forEachRow("SELECT at_s, bpm, rr_s, from_file FROM heart_rate WHERE session_id = ? ORDER BY at_s, id", [sessionID]) { row, _ in
            var rr: [Double] = []
            if case .text(let text) = row.value(2) { rr = text.split(separator: " ").compactMap { Double($0) } }
            samples.append(HeartRateSample(seconds: row.double(0), bpm: Int(row.int64(1)), rrIntervalsSeconds: rr,
                                           fromTrackFile: row.int64(3) != 0))
        }
        return samples
    }

    /// Gives each point the sample at its own time (a track file's), else the latest strap sample
    /// at most `HeartRateStats.holdSeconds` before it (a live strap is not in step with the GPS).
    static func joinHeartRate(_ samples: [HeartRateSample], into points: inout [TrackPoint]) {
        guard !samples.isEmpty else { return }
        var next = 0
        for i in points.indices where points[i].heartRateBPM == nil {
            let t = points[i].elapsedSeconds
            while next < samples.count, samples[next].seconds <= t { next += 1 }
            guard next > 0 else { continue }
            let sample = samples[next - 1]
            // Stored times are rounded alike, so a file's sample meets its point's time to the millisecond.
            guard sample.fromTrackFile ? abs(t - sample.seconds) < 0.0005 : t - sample.seconds <= HeartRateStats.holdSeconds else { continue }
            points[i].heartRateBPM = samples[next - 1].bpm
        }
    }
}
