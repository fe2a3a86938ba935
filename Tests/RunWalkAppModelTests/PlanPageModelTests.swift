import RunWalkAppModel
import RunWalkCore
import Testing

/// The start page's plan card and the plans page, from a plan's progress and "today".
@Suite struct PlanPageModelTests {
    // 2026-11-23 is a Monday.
    static let monday = CalendarDay(year: 2026, month: 11, day: 23)
    static let plan = TrainingPlan.couchTo5K

    static func progress(_ log: [PlanLogEntry], days: [Weekday] = [.mon, .wed, .fri]) -> PlanProgress {
        PlanProgress(plan: plan, enrolment: PlanEnrolment(id: 7, planName: plan.name, startDay: monday, weekdays: days), log: log)
    }

    @Test func freshPlanIsWeekOneDayOneDueToday() throws {
        let card = PlanDayCard(progress: Self.progress([]), today: Self.monday)
        let day = try #require(card.day)
        #expect(card.title == "Week 1 · Day 1 of Couch to 5K")
        #expect(card.when == "Due today")
        #expect(card.spoken == "Week 1 · Day 1 of Couch to 5K — due today")
        #expect(card.startLabel == "Start today's run")
        // The same workout `runwalk run next` runs: the enrolment's next slot, parsed.
        #expect(day.enrolmentID == 7)
        #expect(day.slot == TrainingPlan.Slot(week: 0, day: 0))
        #expect(day.workout == Self.plan.workout(at: day.slot))
        #expect(day.introduction(language: .en) == "Week 1, day 1 of couch to 5K.")
        #expect(card.detail.hasPrefix(TimeText.clock(try #require(day.workout.plannedDuration).seconds) + " · "))
    }

    @Test func nextAndOverdueWording() {
        // Day 1 done on Monday: day 2 is Wednesday's.
        let done = [PlanLogEntry(kind: .done, slot: .init(week: 0, day: 0), day: Self.monday, sessionID: 1, runFraction: 1)]
        let later = PlanDayCard(progress: Self.progress(done), today: Self.monday.adding(days: 1))
        #expect(later.title == "Week 1 · Day 2 of Couch to 5K")
        #expect(later.when == "Next: Wed 2026-11-25 (you can run it now)")
        #expect(later.spoken.hasSuffix("— next"))
        let overdue = PlanDayCard(progress: Self.progress(done), today: Self.monday.adding(days: 4))
        #expect(overdue.when == "Overdue since Wed 2026-11-25: run it when you can")
        #expect(overdue.spoken.hasSuffix("— overdue"))
    }

    @Test func shortTryIsToldAndMarked() {
        let short = [PlanLogEntry(kind: .short, slot: .init(week: 0, day: 0), day: Self.monday, sessionID: 3, runFraction: 0.456)]
        let card = PlanDayCard(progress: Self.progress(short), today: Self.monday)
        #expect(card.title == "Week 1 · Day 1 of Couch to 5K")
        #expect(card.shortNote == "The last try (Mon 2026-11-23) ran 45 % of the run time: it is offered again.")
        let weeks = PlansPageModel.weeks(Self.progress(short))
        #expect(weeks[0].marks == [.short, .todo, .todo])
    }

    @Test func weeksShowDoneSkippedNextAndToDo() {
        let log = [
            PlanLogEntry(kind: .done, slot: .init(week: 0, day: 0), day: Self.monday, sessionID: 1, runFraction: 1),
            PlanLogEntry(kind: .skip, slot: .init(week: 0, day: 1), day: Self.monday.adding(days: 2)),
        ]
        let model = PlansPageModel(plans: [(Self.plan, true)], progress: Self.progress(log), today: Self.monday.adding(days: 4))
        let following = try? #require(model.following)
        #expect(following?.title == "Couch to 5K")
        #expect(following?.schedule == "From Mon 2026-11-23 on Mon, Wed, Fri")
        #expect(following?.done == "Done 1 of 27 days (3 %), 1 skipped")
        #expect(following?.next.hasPrefix("Next: week 1, day 3 (") == true)
        #expect(following?.next.hasSuffix(" today") == true)
        #expect(following?.repeatLabel == "Repeat week 1")
        let week1 = following?.weeks[0]
        #expect(week1?.marks == [.done, .skipped, .due])
        #expect(week1?.glyphs == "✓ – ▶")
        #expect(week1?.subtitle == "Day 1 done, day 2 skipped, day 3 next")
        #expect(week1?.isCurrent == true)
        #expect(following?.weeks[1].marks == [.todo, .todo, .todo])
        #expect(following?.weeks[1].subtitle == "All 3 days to do")
        #expect(following?.weeks.count == 9)
        #expect(model.plans.first?.subtitle == "9 weeks · 3 days a week · built-in")
        #expect(model.plans.first?.defaultDays == [.mon, .wed, .fri])
    }

    @Test func finishedPlanOffersNoStart() {
        let log = Self.plan.slots.map { PlanLogEntry(kind: .skip, slot: $0, day: Self.monday) }
        let card = PlanDayCard(progress: Self.progress(log), today: Self.monday)
        #expect(card.day == nil)
        #expect(card.title == "Couch to 5K finished")
        let model = PlansPageModel(plans: [], progress: Self.progress(log), today: Self.monday)
        #expect(model.following?.canSkip == false)
        #expect(model.following?.next == "Plan finished: every day done or skipped.")
    }

    @Test func todayFromTheEnvironmentOrTheClock() {
        let now = UTCTime(year: 2026, month: 11, day: 28, secondsOfDayMilli: 23 * 3_600_000)
        #expect(PlanToday.day(environment: [:], now: now) == .success(CalendarDay(year: 2026, month: 11, day: 28)))
        #expect(PlanToday.day(environment: ["RUNWALK_TODAY": "2026-12-01"], now: now) == .success(CalendarDay(year: 2026, month: 12, day: 1)))
        #expect(PlanToday.day(environment: ["RUNWALK_TODAY": "soon"], now: now)
                == .failure(PlanPageProblem("RUNWALK_TODAY=soon: expected a date as YYYY-MM-DD")))
    }
}

/// `runwalk-app --page NAME`.
@Suite struct AppPageOptionTests {
    @Test func pageIsTakenOutOfTheArguments() throws {
        let taken = try AppPage.take(from: ["--gps", "file:t.nmea", "--page", "plans", "--voice", "off"])
        #expect(taken.page == .plans)
        #expect(taken.rest == ["--gps", "file:t.nmea", "--voice", "off"])
        #expect(try AppPage.take(from: ["--page=history"]).page == .history)
        #expect(try AppPage.take(from: []).page == nil)
        _ = try AppOptions(arguments: taken.rest)
    }

    @Test func unknownOrMissingPageIsOneLine() {
        #expect(throws: AppOptions.Problem(description: "runwalk-app: --page: no page named \"map\" (start, plans, workouts, settings or history)")) {
            try AppPage.take(from: ["--page", "map"])
        }
        #expect(throws: AppOptions.Problem(description: "runwalk-app: --page needs a value (start, plans, workouts, settings or history)")) {
            try AppPage.take(from: ["--page"])
        }
    }
}
