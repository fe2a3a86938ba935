import FoundationEssentials
import RunWalkCore
import RunWalkIO

/// Finds sessions a crash left open and closes them with a summary rebuilt from what was recorded.
extension RunWalkStore {
    /// A session closed by recovery.
    public struct Recovered: Sendable, Equatable {
        public var info: SessionInfo
        public var fixes: Int
        public var summary: Summary
    }

    /// Sessions marked `recording` whose recorder is gone (its lock is free).
    public func abandonedSessions() throws -> [SessionInfo] {
        let locks = location.locksDirectory
        return try read { db in
            try db.rows("SELECT * FROM sessions WHERE state = 'recording' ORDER BY id").compactMap { row in
                let token: String? = row["owner_token"]
                if let token, SessionLock.isHeld(directory: locks, token: token) { return nil }
                return try Self.info(row: row)
            }
        }
    }

    /// Closes every abandoned session as `interrupted`, with its summary rebuilt from its rows.
    public func recoverAbandonedSessions() throws -> [Recovered] {
        var recovered: [Recovered] = []
        for info in try abandonedSessions() {
            let wall = SessionRecorder.wallMilliseconds()
            let result: Recovered? = try write { db in
                // Checked again inside the transaction: another runwalk may have recovered it meanwhile.
                let state = try db.value(String.self, "SELECT state FROM sessions WHERE id = ?", [info.id]).map(StoredSessionState.init(rawValue:))
                guard state == .recording else { return nil }
                let summary = try SummaryRebuilder.summary(db, sessionID: info.id, state: .interrupted)
                try SessionCloser.close(db, sessionID: info.id, summary: summary, summaryJSON: try SummaryJSON.encode(summary),
                                        endedWallMs: wall)
                let fixes = try db.value(Int.self, "SELECT COUNT(*) FROM fixes WHERE session_id = ?", [info.id]) ?? 0
                var closed = info
                closed.state = .closed(.interrupted)
                closed.distanceMetres = summary.distanceMetres
                closed.durationSeconds = summary.durationSeconds
                return Recovered(info: closed, fixes: fixes, summary: summary)
            }
            if let result { recovered.append(result) }
        }
        // Lock files of dead recorders are left behind by the crash; nobody holds them now.
        if let names = try? FileManager.default.contentsOfDirectory(atPath: location.locksDirectory) {
            let open = Set(try read { db in try db.values(String.self, "SELECT owner_token FROM sessions WHERE owner_token IS NOT NULL") })
            for name in names where name.hasSuffix(".lock") && !open.contains(String(name.dropLast(5))) {
                let token = String(name.dropLast(5))
                let path = location.locksDirectory + "/" + name
                // Young files are left alone: a recorder may be between creating its file and locking it.
                let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
                if modified.timeIntervalSinceNow < -60, !SessionLock.isHeld(directory: location.locksDirectory, token: token) {
                    try? FileManager.default.removeItem(atPath: path)
                }
            }
        }
        return recovered
    }
}
