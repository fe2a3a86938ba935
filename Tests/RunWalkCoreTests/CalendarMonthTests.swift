import Testing
import RunWalkCore

@Suite("CalendarMonth and the month's weeks")
struct CalendarMonthTests {
    @Test("previous and next step over the year's ends; a month outside 1–12 rolls over")
    func stepping() {
        let january = CalendarMonth(year: 2026, month: 1)
        #expect(january.previous == CalendarMonth(year: 2025, month: 12))
        #expect(january.previous.next == january)
        #expect(CalendarMonth(year: 2026, month: 12).next == CalendarMonth(year: 2027, month: 1))
        #expect(CalendarMonth(year: 2026, month: 0) == CalendarMonth(year: 2025, month: 12))
        #expect(CalendarMonth(year: 2026, month: -12) == CalendarMonth(year: 2024, month: 12))
        #expect(CalendarMonth(year: 2026, month: 25) == CalendarMonth(year: 2028, month: 1))
        #expect(CalendarMonth(containing: CalendarDay(year: 2024, month: 2, day: 29)).dayCount == 29)
        #expect(CalendarMonth(year: 2026, month: 11).title == "November 2026")
        #expect(CalendarMonth(year: 2026, month: 3).description == "2026-03")
        #expect(CalendarMonth(year: 2026, month: 11).lastDay == CalendarDay(year: 2026, month: 11, day: 30))
        #expect(CalendarMonth(year: 2025, month: 12) < january)
    }

    @Test("a month's rows: Monday first, days outside the month empty, row totals add up to the month")
    func weeks() {
        // November 2026 starts on a Sunday: six rows.
        let calendar = TrainingCalendar(runs: [
            .init(day: CalendarDay(year: 2026, month: 10, day: 31), distanceMetres: 9000, durationSeconds: 3000),
            .init(day: CalendarDay(year: 2026, month: 11, day: 1), distanceMetres: 3000, durationSeconds: 1200),
            .init(day: CalendarDay(year: 2026, month: 11, day: 3), distanceMetres: 4000, durationSeconds: 1500),
            .init(day: CalendarDay(year: 2026, month: 11, day: 3), distanceMetres: 1000, durationSeconds: 400),
            .init(day: CalendarDay(year: 2026, month: 11, day: 30), distanceMetres: 5000, durationSeconds: 1800),
        ])
        let month = CalendarMonth(year: 2026, month: 11)
        let weeks = calendar.weeks(of: month)
        #expect(weeks.count == 6)
        #expect(weeks[0].days.prefix(6).allSatisfy { $0 == nil })
        #expect(weeks[0].days[6] == CalendarDay(year: 2026, month: 11, day: 1))
        // 31 October is in the first row's week but not in the month: not counted.
        #expect(weeks[0].totals == .init(sessions: 1, distanceMetres: 3000, durationSeconds: 1200))
        #expect(weeks[1].totals == .init(sessions: 2, distanceMetres: 5000, durationSeconds: 1900))
        #expect(weeks[5].days[0] == CalendarDay(year: 2026, month: 11, day: 30) && weeks[5].days[1] == nil)
        let sum = weeks.reduce(0) { $0 + $1.totals.distanceMetres }
        #expect(sum == calendar.month(year: 2026, month: 11).distanceMetres)
        #expect(calendar.bestWeek()?.monday == CalendarDay(year: 2026, month: 10, day: 26))
        #expect(calendar.bestWeek()?.totals.sessions == 2)
    }

    @Test("the months to browse reach from the first run to the last run, plan day or today")
    func browsable() {
        let today = CalendarDay(year: 2026, month: 11, day: 28)
        #expect(TrainingCalendar(runs: []).browsableMonths(today: today) == CalendarMonth(year: 2026, month: 11)...CalendarMonth(year: 2026, month: 11))
        let calendar = TrainingCalendar(runs: [.init(day: CalendarDay(year: 2026, month: 8, day: 2), distanceMetres: 1, durationSeconds: 1)],
                                        due: [CalendarDay(year: 2027, month: 1, day: 4)])
        #expect(calendar.browsableMonths(today: today) == CalendarMonth(year: 2026, month: 8)...CalendarMonth(year: 2027, month: 1))
    }
}
