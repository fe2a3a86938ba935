/// Past runs and plan days due, by calendar day: the month grid, weekly and monthly totals
/// and streaks that `history --calendar` and the history page show.
public struct TrainingCalendar: Sendable, Equatable {
    /// What was run on a day (or in a week, or a month).
    public struct Totals: Sendable, Equatable {
        /// Sessions run.
        public var sessions = 0
        /// Distance, metres.
        public var distanceMetres = 0.0
        /// Workout time, seconds.
        public var durationSeconds = 0.0
        public init(sessions: Int = 0, distanceMetres: Double = 0, durationSeconds: Double = 0) {
            self.sessions = sessions
            self.distanceMetres = distanceMetres
            self.durationSeconds = durationSeconds
        }

        mutating func add(_ other: Totals) {
            sessions += other.sessions
            distanceMetres += other.distanceMetres
            durationSeconds += other.durationSeconds
        }
    }

    /// One run: its date and totals.
    public struct Run: Sendable, Equatable {
        /// The UTC date it was run on.
        public var day: CalendarDay
        /// Distance, metres.
        public var distanceMetres: Double
        /// Workout time, seconds.
        public var durationSeconds: Double
        public init(day: CalendarDay, distanceMetres: Double, durationSeconds: Double) {
            self.day = day
            self.distanceMetres = distanceMetres
            self.durationSeconds = durationSeconds
        }
    }

    /// A month laid out Monday first: weeks of seven days, nil outside the month.
    public struct Month: Sendable, Equatable {
        /// The year.
        public var year: Int
        /// The month, 1–12.
        public var month: Int
        /// Rows of seven days, Monday first.
        public var weeks: [[CalendarDay?]]
    }

    /// Runs by day.
    public private(set) var byDay: [CalendarDay: Totals] = [:]
    /// Plan days due (from the active plan's schedule).
    public var due: Set<CalendarDay>

    public init(runs: [Run], due: Set<CalendarDay> = []) {
        self.due = due
        for run in runs {
            var totals = byDay[run.day] ?? Totals()
            totals.add(Totals(sessions: 1, distanceMetres: run.distanceMetres, durationSeconds: run.durationSeconds))
            byDay[run.day] = totals
        }
    }

    /// Totals over `days` days from `first`.
    public func totals(from first: CalendarDay, days: Int) -> Totals {
        var sum = Totals()
        for offset in 0..<max(0, days) { if let t = byDay[first.adding(days: offset)] { sum.add(t) } }
        return sum
    }

    /// Totals of the week (Monday to Sunday) holding `day`.
    public func week(of day: CalendarDay) -> Totals { totals(from: day.monday, days: 7) }

    /// Totals of a month.
    public func month(year: Int, month: Int) -> Totals {
        totals(from: CalendarDay(year: year, month: month, day: 1), days: CalendarDay.daysIn(year: year, month: month))
    }

    /// The month's grid.
    public func grid(year: Int, month: Int) -> Month {
        let first = CalendarDay(year: year, month: month, day: 1)
        let last = first.adding(days: CalendarDay.daysIn(year: year, month: month) - 1)
        var weeks: [[CalendarDay?]] = []
        var monday = first.monday
        while monday <= last {
            weeks.append((0..<7).map { offset in
                let day = monday.adding(days: offset)
                return day >= first && day <= last ? day : nil
            })
            monday = monday.adding(days: 7)
        }
        return Month(year: year, month: month, weeks: weeks)
    }

    /// Weeks in a row with a run: the streak still alive at `today` (this week counts once it
    /// has a run; until then the streak up to last week stands) and the longest ever.
    public func weekStreak(today: CalendarDay) -> (current: Int, longest: Int) {
        let weeks = Set(byDay.keys.map(\.monday))
        return Self.streak(of: weeks, step: 7, today: today.monday)
    }

    /// Days in a row with a run, the same way.
    public func dayStreak(today: CalendarDay) -> (current: Int, longest: Int) {
        Self.streak(of: Set(byDay.keys), step: 1, today: today)
    }

    private static func streak(of days: Set<CalendarDay>, step: Int, today: CalendarDay) -> (current: Int, longest: Int) {
        var longest = 0
        for day in days where !days.contains(day.adding(days: -step)) {
            var length = 1
            while days.contains(day.adding(days: step * length)) { length += 1 }
            longest = max(longest, length)
        }
        var current = 0
        var cursor = days.contains(today) ? today : today.adding(days: -step)
        while days.contains(cursor) {
            current += 1
            cursor = cursor.adding(days: -step)
        }
        return (current, longest)
    }
}
