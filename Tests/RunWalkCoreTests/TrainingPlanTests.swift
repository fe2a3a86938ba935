import Testing
@testable import RunWalkCore

@Suite("TrainingPlan")
struct TrainingPlanTests {
    @Test("built-in plans: couch-to-5K is 9 weeks of 3 days from 60 s runs to 30 minutes; every day parses")
    func builtIns() throws {
        let c25k = try #require(TrainingPlan.builtIn(named: "C25K"))
        #expect(c25k.weeks.count == 9)
        #expect(c25k.weeks.allSatisfy { $0.days.count == 3 })
        #expect(c25k.weeks[0].days[0].workout == "5m warmup, 8x(60s run, 90s walk), 5m cooldown")
        #expect(c25k.weeks[8].days[2].workout == "5m warmup, 30m run, 5m cooldown")
        for plan in TrainingPlan.builtIns {
            for slot in plan.slots { #expect(plan.workout(at: slot) != nil, "\(plan.name) \(slot)") }
            #expect(try TrainingPlan(json: plan.json) == plan, "\(plan.name) survives export and import")
        }
        #expect(TrainingPlan.builtIn(named: "galloway-5k")?.weeks.count == 8)
        #expect(TrainingPlan.builtIn(named: "runwalk-10k")?.weeks.count == 10)
        #expect(c25k.introduction(for: .init(week: 2, day: 1)) == "Week 3, day 2 of couch to 5K.")
        #expect(c25k.introduction(for: .init(week: 2, day: 1), language: .de) == "Woche 3, Tag 2 von Couch to 5K.")
    }

    @Test("JSON mistakes name plan, week, day, field, line and column (and the spec's column)",
          arguments: [
            (#"{"name": "p", "weeks": [{"days": [{"workout": "5m run"}, {"workout": "2x(1m run, 1m wlak)"}]}]}"#,
             #"line 1, column 85: plan "p", week 1, day 2, field "workout": spec column 15: unknown phase "wlak""#),
            (#"{"name": "p", "weeks": [{"days": [{"workout": 5}]}]}"#,
             #"line 1, column 47: plan "p", week 1, day 1, field "workout": expected a workout spec string, found a number"#),
            (#"{"name": "p", "weeks": [{"days": [{"note": "x"}]}]}"#,
             #"line 1, column 35: plan "p", week 1, day 1, field "workout": missing"#),
            (#"{"name": "p", "days_per_week": 2, "weeks": [{"days": [{"workout": "5m run"}, {"workout": "5m run"}, {"workout": "5m run"}]}]}"#,
             #"line 1, column 54: plan "p", week 1, field "days": 3 days, more than days_per_week (2)"#),
            (#"{"name": "bad name", "weeks": []}"#, #"line 1, column 10: plan "bad name", field "name": bad plan name (character 4): use up to 64 letters, digits, - and _"#),
            (#"{"name": "p", "weeks": [{"days": [{"workout": "5m run"}]}], "wekes": 1}"#,
             #"line 1, column 70: plan "p", field "wekes": unknown field (expected name, title, days_per_week, weeks)"#),
            ("[1, 2]", #"line 1, column 1: expected a plan object {"name": …, "weeks": […]}, found an array"#),
            ("{\"name\": \"p\",\n  \"weeks\": [\n    {\"days\": [}\n]}", "line 3, column 15: unexpected \"}\": expected a value"),
            ("{\"name\": \"p\" \"weeks\": []}", "line 1, column 14: expected \",\" or \"}\""),
            ("{\"name\": \"p\", \"name\": \"q\"}", "line 1, column 15: \"name\" appears twice in this object"),
          ])
    func errors(json: String, expected: String) {
        #expect(throws: PlanError.self) { _ = try TrainingPlan(json: json) }
        do { _ = try TrainingPlan(json: json) } catch {
            #expect(error.description.hasPrefix(expected), "\(error.description)")
        }
    }

    @Test("a built-in workout name is a valid day; days_per_week defaults to the longest week")
    func namesAndDefaults() throws {
        let plan = try TrainingPlan(json: #"{"name": "Mine", "title": "My \"plan\"", "weeks": [{"days": [{"workout": "c25k-w1", "note": "easy"}]}]}"#)
        #expect(plan.name == "mine")
        #expect(plan.title == "My \"plan\"")
        #expect(plan.daysPerWeek == 1)
        #expect(plan.workout(at: .init(week: 0, day: 0))?.phases.count == 18)
        #expect(try TrainingPlan(json: plan.json) == plan)
    }
}

@Suite("PlanProgress")
struct PlanProgressTests {
    let plan = TrainingPlan.couchTo5K
    let start = CalendarDay(year: 2026, month: 11, day: 2)  // a Monday
    var enrolment: PlanEnrolment { PlanEnrolment(id: 1, planName: "c25k", startDay: start, weekdays: [.mon, .wed, .fri]) }

    func entry(_ kind: PlanLogEntry.Kind, _ week: Int, _ day: Int, on offset: Int, session: Int64? = nil) -> PlanLogEntry {
        PlanLogEntry(kind: kind, slot: .init(week: week, day: day), day: start.adding(days: offset), sessionID: session)
    }

    @Test("done and skipped days clear, a short one does not; the next day goes on the next training day")
    func doneSkipShort() {
        let progress = PlanProgress(plan: plan, enrolment: enrolment, log: [
            entry(.done, 0, 0, on: 0, session: 1), entry(.skip, 0, 1, on: 2), entry(.short, 0, 2, on: 4, session: 2),
        ])
        #expect(progress.next == .init(week: 0, day: 2))
        #expect(progress.done == [.init(week: 0, day: 0)])
        #expect(progress.shortAttempt?.sessionID == 2)
        #expect(progress.scheduledDay == start.adding(days: 4), "Friday: after Wednesday's skip")
        let projected = progress.projected(today: start.adding(days: 5))
        #expect(projected.prefix(3).map(\.day) == [7, 9, 11].map { start.adding(days: $0) }, "from Saturday: Mon, Wed, Fri")
        #expect(projected.count == 25)
    }

    @Test("a repeat makes the week to do again; a deleted session (its entry gone) makes its day due")
    func repeatAndDelete() {
        var log = (0..<3).map { entry(.done, 0, $0, on: $0 * 2, session: Int64($0 + 1)) }
        var progress = PlanProgress(plan: plan, enrolment: enrolment, log: log)
        #expect(progress.next == .init(week: 1, day: 0))
        #expect(progress.weekToRepeat == 0, "nothing of week 2 done yet: the week just finished")
        log.append(entry(.repeatWeek, 0, 0, on: 5))
        progress = PlanProgress(plan: plan, enrolment: enrolment, log: log)
        #expect(progress.next == .init(week: 0, day: 0))
        #expect(progress.done.isEmpty)
        log = (0..<3).map { entry(.done, 0, $0, on: $0 * 2, session: Int64($0 + 1)) }
        log.remove(at: 1)
        progress = PlanProgress(plan: plan, enrolment: enrolment, log: log)
        #expect(progress.next == .init(week: 0, day: 1))
        #expect(progress.done.count == 2)
    }

    @Test("run completion: time run up to each run's target over the planned run time; distance runs by metres")
    func runCompletion() throws {
        let workout = try Workout(parsing: "1m warmup, 2x(2m run, 1m walk), 400m run")
        func phase(_ index: Int, _ kind: PhaseKind, seconds: Double, metres: Double = 0) -> Summary.Phase {
            Summary.Phase(index: index, kind: kind, startSeconds: 0, durationSeconds: seconds, planned: .init(durationSeconds: nil, distanceMetres: nil),
                          distanceMetres: metres, averagePaceSecondsPerKm: nil, endReason: .completed)
        }
        let planned = 240 + 400 / 2.5
        #expect(RunCompletion.fraction(planned: workout, phases: []) == 0)
        let half = RunCompletion.fraction(planned: workout, phases: [phase(0, .warmup, seconds: 60), phase(1, .run, seconds: 130)])
        #expect(abs(half - 120 / planned) < 1e-9, "a run longer than planned counts its target")
        let all = RunCompletion.fraction(planned: workout, phases: [phase(1, .run, seconds: 120), phase(3, .run, seconds: 120),
                                                                     phase(5, .run, seconds: 150, metres: 380)])
        #expect(abs(all - (240 + 380 / 2.5) / planned) < 1e-9)
        #expect(RunCompletion.fraction(planned: try Workout(parsing: "10m walk"), phases: []) == 1)
    }
}

@Suite("CalendarDay and TrainingCalendar")
struct TrainingCalendarTests {
    @Test("dates parse strictly; weekdays and weekday lists")
    func dates() throws {
        #expect(CalendarDay(parsing: "2026-11-25")?.weekday == 2)
        #expect(CalendarDay(parsing: "2026-11-25")?.withWeekday == "Wed 2026-11-25")
        #expect(CalendarDay(parsing: "2026-02-29") == nil)
        #expect(CalendarDay(parsing: "2024-02-29") != nil)
        #expect(CalendarDay(parsing: "2026-1-05") == nil)
        #expect(try Weekday.parseList("sat,Mon,wednesday").get() == [.mon, .wed, .sat])
        #expect(throws: WeekdayListError.self) { try Weekday.parseList("mon,mo").get() }
        #expect(throws: WeekdayListError.self) { try Weekday.parseList("mon,monday").get() }
    }

    @Test("month grid Monday first; week and month totals; streaks of weeks and days")
    func calendar() {
        let d = { (day: Int) in CalendarDay(year: 2026, month: 11, day: day) }
        let calendar = TrainingCalendar(runs: [
            .init(day: d(2), distanceMetres: 3000, durationSeconds: 1800), .init(day: d(3), distanceMetres: 1000, durationSeconds: 600),
            .init(day: d(3), distanceMetres: 500, durationSeconds: 300), .init(day: d(11), distanceMetres: 4000, durationSeconds: 2000),
            .init(day: d(24), distanceMetres: 4000, durationSeconds: 2000),
        ])
        let grid = calendar.grid(year: 2026, month: 11)
        #expect(grid.weeks.count == 6)
        #expect(grid.weeks[0].compactMap { $0 } == [d(1)], "1 November 2026 is a Sunday")
        #expect(calendar.byDay[d(3)]?.sessions == 2)
        #expect(calendar.week(of: d(5)).distanceMetres == 4500)
        #expect(calendar.month(year: 2026, month: 11).sessions == 5)
        #expect(calendar.weekStreak(today: d(25)) == (current: 1, longest: 2) ? true : false)
        #expect(calendar.dayStreak(today: d(25)) == (current: 1, longest: 2) ? true : false)
        #expect(calendar.weekStreak(today: d(30)).current == 1, "last week's run keeps the streak until this week ends")
    }
}
