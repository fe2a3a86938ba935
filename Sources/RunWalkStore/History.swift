import RunWalkCore

/// Past sessions, weekly totals and personal records, read from the store.
public struct History: Sendable {
    /// Totals for one week (Monday to Sunday, UTC).
    public struct Week: Sendable, Equatable {
        /// The Monday the week starts on, days since 1970-01-01.
        public var mondayDay: Int64
        public var sessions: Int
        public var distanceMetres: Double
        public var durationSeconds: Double
    }

    /// One record: its value and the session that holds it.
    public struct Record: Sendable, Equatable {
        public var name: String
        /// Seconds for time records, metres for distance records.
        public var seconds: Double?
        public var metres: Double?
        public var sessionID: Int64
        public var date: UTCTime
    }

    /// The records `runwalk history --records` shows.
    public struct Records: Sendable, Equatable {
        public var fastest1km: Record?
        public var fastest5km: Record?
        /// The session with the longest distance.
        public var longestRun: Record?
        /// The longest phase of kind `run`, by time.
        public var longestRunInterval: Record?
    }

    public let store: RunWalkStore

    public init(store: RunWalkStore) { self.store = store }

    /// Closed and open sessions, newest first.
    public func sessions() throws -> [SessionInfo] { try store.sessions() }

    /// The `count` weeks up to and including the week holding `now`, oldest first (empty weeks included).
    public func weeks(count: Int, now: UTCTime) throws -> [Week] {
        let thisMonday = Self.monday(of: now.day)
        var weeks = (0..<max(0, count)).reversed().map {
            Week(mondayDay: thisMonday - Int64($0) * 7, sessions: 0, distanceMetres: 0, durationSeconds: 0)
        }
        guard let first = weeks.first else { return [] }
        for session in try store.sessions() where !session.state.isRecording {
            let monday = Self.monday(of: session.date.day)
            guard monday >= first.mondayDay, monday <= thisMonday else { continue }
            let i = Int((monday - first.mondayDay) / 7)
            weeks[i].sessions += 1
            weeks[i].distanceMetres += session.distanceMetres ?? 0
            weeks[i].durationSeconds += session.durationSeconds ?? 0
        }
        return weeks
    }

    /// Fastest 1 km and 5 km (best efforts within a session), longest run, longest run interval.
    public func records() throws -> Records {
        try store.read { db in
            func best(_ name: String, column: String, descending: Bool, asSeconds: Bool) throws -> Record? {
                let order = descending ? "DESC" : "ASC"
                guard let row = try db.row("""
                    SELECT * FROM sessions WHERE \(column) IS NOT NULL AND state != 'recording' ORDER BY \(column) \(order), id LIMIT 1
                    """) else { return nil }
                let info = try RunWalkStore.info(row: row)
                let value: Double = try row.get(column)
                return Record(name: name, seconds: asSeconds ? value : info.durationSeconds,
                              metres: asSeconds ? nil : value, sessionID: info.id, date: info.date)
            }
            var records = Records(
                fastest1km: try best("fastest 1 km", column: "best_1km_s", descending: false, asSeconds: true),
                fastest5km: try best("fastest 5 km", column: "best_5km_s", descending: false, asSeconds: true),
                longestRun: try best("longest run", column: "distance_m", descending: true, asSeconds: false))
            if let row = try db.row("""
                SELECT p.duration_s, p.distance_m, s.* FROM phases p JOIN sessions s ON s.id = p.session_id
                WHERE p.kind = 'run' AND p.duration_s IS NOT NULL AND s.state != 'recording'
                ORDER BY p.duration_s DESC, s.id LIMIT 1
                """) {
                let info = try RunWalkStore.info(row: row)
                records.longestRunInterval = Record(name: "longest run interval", seconds: row[0], metres: row[1],
                                                    sessionID: info.id, date: info.date)
            }
            return records
        }
    }

    /// The records session `sessionID` set: where its value beats every earlier session's
    /// (by id), or where no earlier session has one. Time records in seconds, distances in metres.
    public func recordsSet(by sessionID: Int64) throws -> [Record] {
        try store.read { db in
            let metrics: [(name: String, sql: String, lowerIsBetter: Bool, isTime: Bool)] = [
                ("fastest 1 km", "SELECT best_1km_s FROM sessions WHERE id = ? AND best_1km_s IS NOT NULL", true, true),
                ("fastest 5 km", "SELECT best_5km_s FROM sessions WHERE id = ? AND best_5km_s IS NOT NULL", true, true),
                ("longest run", "SELECT distance_m FROM sessions WHERE id = ? AND distance_m > 0", false, false),
                ("longest run interval",
                 "SELECT MAX(duration_s) FROM phases WHERE session_id = ? AND kind = 'run' AND duration_s IS NOT NULL", false, true),
            ]
            guard let sessionRow = try db.row("SELECT * FROM sessions WHERE id = ?", [sessionID]) else { return [] }
            let info = try RunWalkStore.info(row: sessionRow)
            let earlier = try db.values(Int64.self, "SELECT id FROM sessions WHERE id < ? AND state != 'recording'", [sessionID])
            var set: [Record] = []
            for metric in metrics {
                guard let value = try db.value(Double.self, metric.sql, [sessionID]) else { continue }
                let previous = try earlier.compactMap { try db.value(Double.self, metric.sql, [$0]) }
                let best = metric.lowerIsBetter ? previous.min() : previous.max()
                let beats = best.map { metric.lowerIsBetter ? value < $0 : value > $0 } ?? true
                guard beats else { continue }
                set.append(Record(name: metric.name, seconds: metric.isTime ? value : nil, metres: metric.isTime ? nil : value,
                                  sessionID: sessionID, date: info.date))
            }
            return set
        }
    }

    /// The Monday on or before `day` (days since 1970-01-01, a Thursday).
    static func monday(of day: Int64) -> Int64 {
        let weekday = ((day + 3) % 7 + 7) % 7  // 0 = Monday
        return day - weekday
    }
}
