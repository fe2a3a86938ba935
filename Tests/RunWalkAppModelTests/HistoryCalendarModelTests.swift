import RunWalkAppModel
import RunWalkCore
import Testing

@Suite struct HistoryCalendarModelTests {
    static func at(_ day: Int, hour: Int = 7) -> UTCTime {
        UTCTime(year: 2026, month: 11, day: day, secondsOfDayMilli: Int64(hour) * 3_600_000)
    }

    static let calendar = TrainingCalendar(runs: [
        .init(day: CalendarDay(year: 2026, month: 10, day: 30), distanceMetres: 4000, durationSeconds: 1500),
        .init(day: CalendarDay(year: 2026, month: 11, day: 3), distanceMetres: 4000, durationSeconds: 1500),
        .init(day: CalendarDay(year: 2026, month: 11, day: 3), distanceMetres: 1000, durationSeconds: 400),
        .init(day: CalendarDay(year: 2026, month: 11, day: 4), distanceMetres: 5000, durationSeconds: 1800),
    ], due: [CalendarDay(year: 2026, month: 11, day: 6), CalendarDay(year: 2026, month: 12, day: 2)])

    @Test func monthGridMarksRunDaysPlanDaysAndToday() {
        let today = CalendarDay(year: 2026, month: 11, day: 5)
        let model = HistoryCalendarModel(calendar: Self.calendar, month: CalendarMonth(year: 2026, month: 11), today: today,
                                         records: .init(), units: .metric)
        #expect(model.title == "November 2026")
        #expect(model.hasPrevious && model.hasNext)
        #expect(model.weeks.count == 6)
        let tuesday = model.weeks[1].days[1]
        #expect(tuesday?.number == "3" && tuesday?.runs == 2)
        #expect(tuesday?.accessibleName == "Tuesday 3 November: 2 runs, 5.00 km")
        #expect(model.weeks[1].days[3]?.isToday == true && model.weeks[1].days[3]?.accessibleName == "Thursday 5 November (today)")
        #expect(model.weeks[1].days[4]?.due == true && model.weeks[1].days[4]?.accessibleName == "Friday 6 November: plan day due")
        #expect(model.weeks[0].title == "1 Nov" && model.weeks[1].title == "2–8 Nov" && model.weeks[5].title == "30 Nov")
        #expect(model.weeks[1].totals == "3 runs · 10.00 km · 1:01:40")
        #expect(model.weeks[2].totals == "No runs" && !model.weeks[2].hasRuns)
        #expect(model.monthTotals == "Month: 3 runs · 10.00 km · 1:01:40")
        #expect(model.thisWeek == "This week: 3 runs · 10.00 km · 1:01:40")
        #expect(model.weekStreak == "2 weeks in a row with a run (longest 2)")
        #expect(model.dayStreak == "2 days in a row (longest 2)")  // today not run yet: the streak up to yesterday stands
    }

    @Test func stepsEndAtTheFirstRunAndTheLastPlanDay() {
        let today = CalendarDay(year: 2026, month: 11, day: 5)
        let october = HistoryCalendarModel(calendar: Self.calendar, month: CalendarMonth(year: 2026, month: 10), today: today,
                                           records: .init(), units: .metric)
        #expect(!october.hasPrevious && october.hasNext)
        let december = HistoryCalendarModel(calendar: Self.calendar, month: CalendarMonth(year: 2026, month: 12), today: today,
                                            records: .init(), units: .metric)
        #expect(december.hasPrevious && !december.hasNext)
        #expect(december.monthTotals == "Month: No runs")
    }

    @Test func recordsNameTheirValueDateAndSession() {
        let records = HistoryCalendarModel.RecordsInput(
            fastest1km: .init(seconds: 302, metres: nil, sessionID: 3, date: Self.at(4)),
            longestRun: .init(seconds: 1800, metres: 5000, sessionID: 3, date: Self.at(4)),
            longestRunInterval: .init(seconds: 600, metres: 1900, sessionID: 2, date: Self.at(3)))
        let model = HistoryCalendarModel(calendar: Self.calendar, month: CalendarMonth(year: 2026, month: 11),
                                         today: CalendarDay(year: 2026, month: 11, day: 4), records: records, units: .metric)
        #expect(model.records.map(\.title) == ["Fastest 1 km", "Longest run", "Longest run interval", "Longest streak", "Best week"])
        #expect(model.records[0].value == "5:02" && model.records[0].detail == "2026-11-04 07:00" && model.records[0].sessionID == 3)
        #expect(model.records[1].value == "5.00 km" && model.records[1].detail == "2026-11-04 07:00 · in 30:00")
        #expect(model.records[2].detail == "2026-11-03 07:00 · 1.90 km without a walk")
        #expect(model.records[3].value == "2 days" && model.records[3].sessionID == nil)
        #expect(model.records[4].value == "10.00 km" && model.records[4].detail == "week of 2026-11-02 · 3 runs")
    }
}
