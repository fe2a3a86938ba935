import Foundation
import RunWalkCore

/// What the history page lists: past sessions (newest first) and weekly totals.
public struct HistoryPageModel: Equatable, Sendable {
    /// A session as the store lists it.
    public struct SessionInput: Equatable, Sendable {
        /// The session's number in the store.
        public var id: Int64
        /// When it started.
        public var date: UTCTime
        /// The workout as given.
        public var workout: String
        /// Its distance, when closed.
        public var distanceMetres: Double?
        /// Its workout time, when closed.
        public var durationSeconds: Double?
        /// "completed", "stopped", "recording" …
        public var state: StoredSessionState

        /// A session as `runwalk history` lists it.
        public init(id: Int64, date: UTCTime, workout: String, distanceMetres: Double?, durationSeconds: Double?, state: StoredSessionState) {
            self.id = id
            self.date = date
            self.workout = workout
            self.distanceMetres = distanceMetres
            self.durationSeconds = durationSeconds
            self.state = state
        }
    }

    /// One row of the session list.
    public struct Row: Equatable, Sendable {
        /// The session's number, to open it.
        public var id: Int64
        /// "2026-04-21 19:00 · 3.86 km · 30:00".
        public var title: String
        /// The workout.
        public var subtitle: String
    }

    /// One week's totals.
    public struct Week: Equatable, Sendable {
        /// "Week of 2026-04-20".
        public var title: String
        /// "3 runs · 12.40 km · 1:32:10".
        public var totals: String
    }

    /// Closed sessions, newest first.
    public var rows: [Row]
    /// Weeks with sessions, newest first.
    public var weeks: [Week]

    /// The page for `sessions`, weeks counted by their Monday (newest week first, empty weeks left out).
    public init(sessions: [SessionInput], units: Units) {
        let closed = sessions.filter { !$0.state.isRecording }
        rows = closed.map { s in
            var parts = [Format.date(s.date)]
            if let d = s.distanceMetres { parts.append(Format.distance(d, units)) }
            if let t = s.durationSeconds { parts.append(TimeText.clock(t)) }
            return Row(id: s.id, title: parts.joined(separator: " · "), subtitle: s.workout)
        }
        var byWeek: [Int64: (count: Int, metres: Double, seconds: Double)] = [:]
        for s in closed {
            let monday = CalendarDay(s.date).monday.daysSinceEpoch
            let old = byWeek[monday] ?? (0, 0, 0)
            byWeek[monday] = (old.count + 1, old.metres + (s.distanceMetres ?? 0), old.seconds + (s.durationSeconds ?? 0))
        }
        weeks = byWeek.keys.sorted(by: >).compactMap { key in
            guard let week = byWeek[key] else { return nil }
            let day = CalendarDay(daysSinceEpoch: key).civil
            return Week(title: String(format: "Week of %04d-%02d-%02d", day.year, day.month, day.day),
                        totals: "\(week.count) run\(week.count == 1 ? "" : "s") · \(Format.distance(week.metres, units)) · \(TimeText.clock(week.seconds))")
        }
    }
}
