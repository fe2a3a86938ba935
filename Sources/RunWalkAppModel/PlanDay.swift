import RunWalkCore

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
        if let seconds = day.workout.plannedDuration?.seconds { parts.append(TimeText.clock(seconds)) }
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
