import RunWalkCore
import RunWalkIO

/// `history --calendar`: a month grid with run days and plan days due, weekly and monthly
/// totals, streaks.
enum HistoryCalendarText {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]

    static func render(_ calendar: TrainingCalendar, year: Int, month: Int, today: CalendarDay, units: Units = .metric) -> [String] {
        let grid = calendar.grid(year: year, month: month)
        var lines = ["\(monthNames[month - 1]) \(year)",
                     "  Mon  Tue  Wed  Thu  Fri  Sat  Sun   runs  distance      time"]
        for week in grid.weeks {
            let cells = week.map { day -> String in
                guard let day else { return "     " }
                let mark = calendar.byDay[day] != nil ? "*" : calendar.due.contains(day) ? "+" : " "
                let number = String(day.civil.day)
                return String(repeating: " ", count: 4 - number.count) + number + mark
            }
            // A week's totals count its days inside the month, so the rows add up to the month.
            let inMonth = week.compactMap { $0 }
            let totals = inMonth.first.map { calendar.totals(from: $0, days: inMonth.count) } ?? TrainingCalendar.Totals()
            lines.append(cells.joined() + "  " + HistoryText.row(
                [String(totals.sessions), SummaryText.distance(totals.distanceMetres, units), TimeText.clock(totals.durationSeconds)],
                [5, 9, 9]))
        }
        let monthTotals = calendar.month(year: year, month: month)
        let weeks = calendar.weekStreak(today: today), days = calendar.dayStreak(today: today)
        lines += [
            "* a run   + a plan day due",
            "Month: \(monthTotals.sessions) run\(monthTotals.sessions == 1 ? "" : "s"), "
                + "\(SummaryText.distance(monthTotals.distanceMetres, units)), \(TimeText.clock(monthTotals.durationSeconds))",
            "Streak: \(weeks.current) week\(weeks.current == 1 ? "" : "s") in a row with a run (longest \(weeks.longest)); "
                + "\(days.current) day\(days.current == 1 ? "" : "s") in a row (longest \(days.longest))",
        ]
        return lines
    }

    /// Parses `YYYY-MM`.
    static func parseMonth(_ text: String) -> (year: Int, month: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else { return nil }
        return (year, month)
    }
}
