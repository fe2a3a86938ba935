import Foundation
import RunWalkCore

/// What the history page's calendar shows for one month: the grid with run days and plan days
/// due, each row's totals, the month's totals, streaks and records. Built from the same
/// `TrainingCalendar` as `runwalk history --calendar`.
public struct HistoryCalendarModel: Equatable, Sendable {
    /// One day of the grid.
    public struct Day: Equatable, Sendable {
        /// The day.
        public var day: CalendarDay
        /// "3".
        public var number: String
        /// Sessions run on it.
        public var runs: Int
        /// A plan day is due on it (and nothing was run).
        public var due: Bool
        /// It is today.
        public var isToday: Bool
        /// What a screen reader says: "Tuesday 3 November: 2 runs, 5.00 km".
        public var accessibleName: String
    }

    /// One row of the grid with its totals.
    public struct Week: Equatable, Sendable {
        /// Seven cells, Monday first; nil outside the month.
        public var days: [Day?]
        /// "3–9 Nov".
        public var title: String
        /// "2 runs · 5.00 km · 31:40", or "No runs".
        public var totals: String
        /// Whether anything was run in the row.
        public var hasRuns: Bool
    }

    /// A record and the session holding it.
    public struct Record: Equatable, Sendable {
        /// "Fastest 1 km".
        public var title: String
        /// "5:02".
        public var value: String
        /// "2026-11-03 07:10", with more where it helps.
        public var detail: String
        /// The session to open, when one holds it.
        public var sessionID: Int64?
    }

    /// What the store says the records are (`runwalk history --records`).
    public struct RecordsInput: Equatable, Sendable {
        public struct Entry: Equatable, Sendable {
            public var seconds: Double?
            public var metres: Double?
            public var sessionID: Int64
            public var date: UTCTime
            public init(seconds: Double?, metres: Double?, sessionID: Int64, date: UTCTime) {
                self.seconds = seconds
                self.metres = metres
                self.sessionID = sessionID
                self.date = date
            }
        }
        public var fastest1km: Entry?
        public var fastest5km: Entry?
        public var longestRun: Entry?
        public var longestRunInterval: Entry?
        public init(fastest1km: Entry? = nil, fastest5km: Entry? = nil, longestRun: Entry? = nil, longestRunInterval: Entry? = nil) {
            self.fastest1km = fastest1km
            self.fastest5km = fastest5km
            self.longestRun = longestRun
            self.longestRunInterval = longestRunInterval
        }
    }

    /// The month shown.
    public var month: CalendarMonth
    /// "November 2026".
    public var title: String
    /// Whether the previous and next buttons lead anywhere.
    public var hasPrevious: Bool
    public var hasNext: Bool
    /// The grid's rows.
    public var weeks: [Week]
    /// "Month: 9 runs · 31.20 km · 3:05:00".
    public var monthTotals: String
    /// "This week: 2 runs · 8.10 km · 52:00".
    public var thisWeek: String
    /// "3 weeks in a row with a run (longest 5)".
    public var weekStreak: String
    /// "1 day in a row (longest 4)".
    public var dayStreak: String
    /// Fastest 1 km and 5 km, longest run, longest run interval, longest streak, best week.
    public var records: [Record]

    /// The page for `month` of `calendar` on `today`.
    public init(calendar: TrainingCalendar, month: CalendarMonth, today: CalendarDay, records input: RecordsInput, units: Units) {
        self.month = month
        title = month.title
        let range = calendar.browsableMonths(today: today)
        hasPrevious = month > range.lowerBound
        hasNext = month < range.upperBound
        weeks = calendar.weeks(of: month).map { week in
            let days = week.days.map { day -> Day? in
                guard let day else { return nil }
                let totals = calendar.byDay[day]
                let runs = totals?.sessions ?? 0
                let due = runs == 0 && calendar.due.contains(day)
                var name = Self.longDate(day)
                if let totals, runs > 0 {
                    name += ": \(Self.count(runs, "run")), \(Format.distance(totals.distanceMetres, units))"
                } else if due {
                    name += ": plan day due"
                }
                if day == today { name += " (today)" }
                return Day(day: day, number: String(day.civil.day), runs: runs, due: due, isToday: day == today, accessibleName: name)
            }
            let inMonth = week.days.compactMap { $0 }
            let title = inMonth.first.map { first in
                let last = inMonth.last ?? first
                return first == last ? Self.shortDate(first) : "\(first.civil.day)–\(Self.shortDate(last))"
            } ?? ""
            return Week(days: days, title: title, totals: Self.totals(week.totals, units), hasRuns: week.totals.sessions > 0)
        }
        monthTotals = "Month: " + Self.totals(calendar.month(year: month.year, month: month.month), units)
        thisWeek = "This week: " + Self.totals(calendar.week(of: today), units)
        let weekly = calendar.weekStreak(today: today), daily = calendar.dayStreak(today: today)
        weekStreak = "\(Self.count(weekly.current, "week")) in a row with a run (longest \(weekly.longest))"
        dayStreak = "\(Self.count(daily.current, "day")) in a row (longest \(daily.longest))"

        var list: [Record] = []
        func add(_ title: String, _ entry: RecordsInput.Entry?, value: (RecordsInput.Entry) -> String, detail: (RecordsInput.Entry) -> String = { _ in "" }) {
            guard let entry else { return }
            let extra = detail(entry)
            list.append(Record(title: title, value: value(entry),
                               detail: Format.date(entry.date) + (extra.isEmpty ? "" : " · " + extra), sessionID: entry.sessionID))
        }
        let time: (RecordsInput.Entry) -> String = { $0.seconds.map { TimeText.clock($0) } ?? "–" }
        add("Fastest 1 km", input.fastest1km, value: time)
        add("Fastest 5 km", input.fastest5km, value: time)
        add("Longest run", input.longestRun, value: { Format.distance($0.metres ?? 0, units) },
            detail: { $0.seconds.map { "in " + TimeText.clock($0) } ?? "" })
        add("Longest run interval", input.longestRunInterval, value: time,
            detail: { ($0.metres.map { Format.distance($0, units) + " " } ?? "") + "without a walk" })
        if daily.longest > 0 {
            list.append(Record(title: "Longest streak", value: Self.count(daily.longest, "day"),
                               detail: "\(Self.count(weekly.longest, "week")) in a row with a run", sessionID: nil))
        }
        if let best = calendar.bestWeek() {
            list.append(Record(title: "Best week", value: Format.distance(best.totals.distanceMetres, units),
                               detail: "week of \(best.monday) · \(Self.count(best.totals.sessions, "run"))", sessionID: nil))
        }
        records = list
    }

    /// "2 runs · 5.00 km · 31:40", or "No runs".
    static func totals(_ totals: TrainingCalendar.Totals, _ units: Units) -> String {
        guard totals.sessions > 0 else { return "No runs" }
        return "\(count(totals.sessions, "run")) · \(Format.distance(totals.distanceMetres, units)) · \(TimeText.clock(totals.durationSeconds))"
    }

    static func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    /// "9 Nov".
    static func shortDate(_ day: CalendarDay) -> String {
        "\(day.civil.day) \(CalendarMonth.names[day.civil.month - 1].prefix(3))"
    }

    /// "Tuesday 3 November".
    static func longDate(_ day: CalendarDay) -> String {
        let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        return "\(weekdays[day.weekday]) \(day.civil.day) \(CalendarMonth.names[day.civil.month - 1])"
    }
}
