import RunWalkCore

/// The plan day a session runs: the active enrolment's next slot, as `runwalk run next`
/// resolves it. The start page hands it to the session start; the session's end marks the
/// day done (or cut short) with it.
public struct PlanDay: Sendable, Equatable {
    /// The enrolment the day belongs to (the store's `plan_enrolments.id`).
    public var enrolmentID: Int64
    /// The plan as it was started (the enrolment's stored JSON).
    public var plan: TrainingPlan
    /// Which week and day.
    public var slot: TrainingPlan.Slot
    /// The day's workout, parsed.
    public var workout: Workout

    public init(enrolmentID: Int64, plan: TrainingPlan, slot: TrainingPlan.Slot, workout: Workout) {
        self.enrolmentID = enrolmentID
        self.plan = plan
        self.slot = slot
        self.workout = workout
    }

    /// The next day of `progress`; nil when the plan is finished.
    public init?(progress: PlanProgress) {
        guard let slot = progress.next, let workout = progress.plan.workout(at: slot) else { return nil }
        self.init(enrolmentID: progress.enrolment.id, plan: progress.plan, slot: slot, workout: workout)
    }

    /// "Week 3 · Day 2 of Couch to 5K".
    public var title: String { "Week \(slot.week + 1) · Day \(slot.day + 1) of \(plan.title)" }

    /// The first cue: "Week 3, day 2 of couch to 5K." (as `runwalk run next` says it).
    public func introduction(language: Language) -> String { plan.introduction(for: slot, language: language) }
}

/// "Today" for plans: `RUNWALK_TODAY=YYYY-MM-DD` (tests, a run logged late) as the CLI reads
/// it, else the UTC date of `now`.
public enum PlanToday {
    /// The day, or the one-line problem with `RUNWALK_TODAY`.
    public static func day(environment: [String: String], now: UTCTime) -> Result<CalendarDay, PlanPageProblem> {
        if let text = environment["RUNWALK_TODAY"], !text.isEmpty {
            guard let day = CalendarDay(parsing: text) else {
                return .failure(PlanPageProblem("RUNWALK_TODAY=\(text): expected a date as YYYY-MM-DD"))
            }
            return .success(day)
        }
        return .success(CalendarDay(now))
    }
}

/// A plan problem told in one line (a broken plan file, a store that cannot be read).
public struct PlanPageProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The start page's plan card: today's plan day first, started with one tap.
public struct PlanDayCard: Equatable, Sendable {
    /// When the day is due, against today.
    public enum When: Equatable, Sendable {
        /// Scheduled for today.
        case today
        /// Scheduled for a later training day (it can still be run now).
        case later(CalendarDay)
        /// Scheduled for an earlier day that went by.
        case overdue(CalendarDay)
    }

    /// The day to run, nil when the plan is finished.
    public var day: PlanDay?
    /// "Week 1 · Day 1 of Couch to 5K", or "Couch to 5K finished".
    public var title: String
    /// "Due today", "Next: Wed 2026-12-02", "Overdue since Mon 2026-11-23: run it when you can".
    public var when: String
    /// "31:00 · 5m warmup, 8x(60s run, 90s walk), 5m cooldown", and a note a plan day has.
    public var detail: String
    /// The last try that fell short, told ("The last try ran 45 % of the run time: once more").
    public var shortNote: String?
    /// The Start button's text.
    public var startLabel: String
    /// The whole card in one line, as a screen reader says it.
    public var spoken: String

    public init(progress: PlanProgress, today: CalendarDay) {
        guard let day = PlanDay(progress: progress) else {
            self.day = nil
            title = "\(progress.plan.title) finished"
            when = "Every day is done or skipped."
            detail = "Start another plan on the Plans page."
            shortNote = nil
            startLabel = ""
            spoken = "\(title). \(when)"
            return
        }
        self.day = day
        title = day.title
        let whenCase = Self.when(progress.scheduledDay, today: today)
        switch whenCase {
        case .today: when = "Due today"
        case .later(let date): when = "Next: \(date.withWeekday) (you can run it now)"
        case .overdue(let date): when = "Overdue since \(date.withWeekday): run it when you can"
        }
        var parts: [String] = []
        if let seconds = day.workout.plannedDuration?.seconds { parts.append(Format.clock(seconds)) }
        parts.append(progress.plan.day(at: day.slot)?.workout ?? day.workout.spec)
        if let note = progress.plan.day(at: day.slot)?.note { parts.append(note) }
        detail = parts.joined(separator: " · ")
        shortNote = progress.shortAttempt.map { short in
            let ran = short.runFraction.map { "\(Int(($0 * 100).rounded(.down))) % of the run time" } ?? "part of the run time"
            return "The last try (\(short.day.withWeekday)) ran \(ran): it is offered again."
        }
        startLabel = whenCase == .today ? "Start today's run" : "Start this run"
        let shortWhen: String = {
            switch whenCase {
            case .today: return "due today"
            case .later: return "next"
            case .overdue: return "overdue"
            }
        }()
        spoken = "\(title) — \(shortWhen)"
    }

    /// Where `scheduled` stands against `today` (a finished plan has no day: today).
    public static func when(_ scheduled: CalendarDay?, today: CalendarDay) -> When {
        guard let scheduled else { return .today }
        if scheduled == today { return .today }
        return scheduled < today ? .overdue(scheduled) : .later(scheduled)
    }
}
