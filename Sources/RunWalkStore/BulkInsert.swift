import RunWalkCore

extension RunWalkStore {
    /// Writes a session's fix and track-point rows directly, `batch` per transaction, with no
    /// recorder or writer thread: the benchmark's ceiling. Returns the session's id.
    @discardableResult
    public func benchmarkBulkInsert(events: [SessionEvent], batch: Int) throws -> Int64 {
        let id = try write { db in
            try db.execute("""
                INSERT INTO sessions (workout_spec, source, units, get_ready_s, recorded_wall_ms, state) VALUES ('bench', 'bench', 'metric', 0, 0, 'bench')
                """)
            return db.lastInsertedRowID
        }
        var rows: [RecordedRow] = []
        for event in events {
            switch event {
            case .telemetry(let update, let clock): rows.append(.fix(update, atSeconds: clock))
            case .trackPoint(let point): rows.append(.trackPoint(point))
            default: continue
            }
        }
        var index = 0
        while index < rows.count {
            let slice = rows[index..<min(rows.count, index + batch)]
            try write { db in
                try RowStatements.inserting(db, sessionID: id) { statements in
                    for row in slice { try row.write(db, sessionID: id, statements: &statements) }
                }
            }
            index += batch
        }
        return id
    }
}
