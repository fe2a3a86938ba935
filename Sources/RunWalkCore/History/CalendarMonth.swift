/// A month of the calendar, as the history page steps through it (previous, next).
public struct CalendarMonth: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year.
    public var year: Int
    /// The month, 1–12.
    public var month: Int

    /// The month `month` of `year`; a month outside 1–12 rolls into the years around it
    /// (0 is December of the year before, 13 January of the next).
    public init(year: Int, month: Int) {
        let zeroBased = month - 1
        let carry = zeroBased >= 0 ? zeroBased / 12 : (zeroBased - 11) / 12
        self.year = year + carry
        self.month = zeroBased - carry * 12 + 1
    }

    /// The month holding `day`.
    public init(containing day: CalendarDay) {
        let civil = day.civil
        self.init(year: civil.year, month: civil.month)
    }

    public static func < (a: CalendarMonth, b: CalendarMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }

    /// The month before.
    public var previous: CalendarMonth { CalendarMonth(year: year, month: month - 1) }
    /// The month after.
    public var next: CalendarMonth { CalendarMonth(year: year, month: month + 1) }
    /// Its first day.
    public var firstDay: CalendarDay { CalendarDay(year: year, month: month, day: 1) }
    /// How many days it has.
    public var dayCount: Int { CalendarDay.daysIn(year: year, month: month) }
    /// Its last day.
    public var lastDay: CalendarDay { firstDay.adding(days: dayCount - 1) }
    /// Whether `day` falls in it.
    public func contains(_ day: CalendarDay) -> Bool { day >= firstDay && day <= lastDay }

    /// "November 2026".
    public var title: String { "\(Self.names[month - 1]) \(year)" }
    /// `2026-11`, as `history --calendar --month` takes it.
    public var description: String { "\(year)-\(month < 10 ? "0" : "")\(month)" }

    /// The months' names in English.
    public static let names = ["January", "February", "March", "April", "May", "June", "July", "August",
                               "September", "October", "November", "December"]
}

extension TrainingCalendar {
    /// One row of a month's grid with the totals of its days inside the month (so the rows add up to the month).
    public struct MonthWeek: Sendable, Equatable {
        /// Seven days, Monday first; nil outside the month.
        public var days: [CalendarDay?]
        /// Runs on this row's days.
        public var totals: Totals
    }

    /// The month's rows, each with its totals.
    public func weeks(of month: CalendarMonth) -> [MonthWeek] {
        grid(year: month.year, month: month.month).weeks.map { week in
            let inMonth = week.compactMap { $0 }
            return MonthWeek(days: week, totals: inMonth.first.map { totals(from: $0, days: inMonth.count) } ?? Totals())
        }
    }

    /// The months a previous/next step may reach: from the first month with a run (or `today`'s,
    /// when earlier) to the last month with a run or a plan day due (or `today`'s, when later).
    public func browsableMonths(today: CalendarDay) -> ClosedRange<CalendarMonth> {
        let days = Array(byDay.keys) + Array(due) + [today]
        let first = days.min() ?? today, last = days.max() ?? today
        return CalendarMonth(containing: first)...CalendarMonth(containing: last)
    }

    /// The most sessions, distance and time any one week (Monday to Sunday) held.
    public func bestWeek() -> (monday: CalendarDay, totals: Totals)? {
        var weeks: [CalendarDay: Totals] = [:]
        for (day, totals) in byDay { weeks[day.monday, default: Totals()].add(totals) }
        return weeks.max { a, b in
            (a.value.distanceMetres, b.key) < (b.value.distanceMetres, a.key)
        }.map { ($0.key, $0.value) }
    }
}
