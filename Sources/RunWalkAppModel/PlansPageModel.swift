import RunWalkCore

/// The plans page: the plans one can start (built-in and imported) and, when one is followed,
/// where the runner is in it, week by week.
public struct PlansPageModel: Equatable, Sendable {
    /// One plan to start.
    public struct PlanRow: Equatable, Sendable {
        /// The plan's name (`runwalk plan start NAME`).
        public var name: String
        /// "Couch to 5K".
        public var title: String
        /// "9 weeks · 3 days a week · built-in".
        public var subtitle: String
        /// The days a fresh start offers (spread over the week).
        public var defaultDays: [Weekday]
    }

    /// How a plan day stands.
    public enum Mark: String, Equatable, Sendable {
        case done, short, skipped, due, todo

        /// The word a week row uses ("done", "short", "skipped", "next", "to do").
        public var word: String {
            switch self {
            case .done: return "done"
            case .short: return "short"
            case .skipped: return "skipped"
            case .due: return "next"
            case .todo: return "to do"
            }
        }

        /// One glyph per day in a week row (also said by its word in the accessible text).
        public var glyph: String {
            switch self {
            case .done: return "✓"
            case .short: return "½"
            case .skipped: return "–"
            case .due: return "▶"
            case .todo: return "·"
            }
        }
    }

    /// One week of the plan followed.
    public struct WeekRow: Equatable, Sendable {
        /// 1-based.
        public var number: Int
        /// "Week 3".
        public var title: String
        /// Each day's mark, in order.
        public var marks: [Mark]
        /// "✓ ✓ ▶" — the days at a glance.
        public var glyphs: String
        /// "Day 1 done, day 2 done, day 3 next".
        public var subtitle: String
        /// The week holds the next day.
        public var isCurrent: Bool
    }

    /// The plan followed, with its progress.
    public struct Following: Equatable, Sendable {
        /// "Couch to 5K".
        public var title: String
        /// "From Mon 2026-11-23 on Mon, Wed, Fri".
        public var schedule: String
        /// "Done 3 of 27 days (11 %), 1 skipped".
        public var done: String
        /// Share done, 0…1 (the progress bar).
        public var fraction: Double
        /// "Next: week 2, day 1 (31:00) today" or "Plan finished: every day done or skipped.".
        public var next: String
        /// "Repeat week 2": what Repeat does now.
        public var repeatLabel: String
        /// Whether a day is left (Skip is offered).
        public var canSkip: Bool
        /// The weeks.
        public var weeks: [WeekRow]
    }

    /// Every plan one can start, built-ins first.
    public var plans: [PlanRow]
    /// The plan followed, nil when none.
    public var following: Following?
    /// Problems to show (a broken plan file, named with its line and column).
    public var problems: [String]

    public init(plans: [(plan: TrainingPlan, builtIn: Bool)], progress: PlanProgress?, today: CalendarDay, problems: [String] = []) {
        self.plans = plans.map { plan, builtIn in
            PlanRow(name: plan.name, title: plan.title,
                    subtitle: "\(plan.weeks.count) weeks · \(plan.daysPerWeek) days a week · \(builtIn ? "built-in" : "imported")",
                    defaultDays: TrainingPlan.defaultDays(perWeek: plan.daysPerWeek))
        }
        self.problems = problems
        following = progress.map { Self.following($0, today: today) }
    }

    static func following(_ progress: PlanProgress, today: CalendarDay) -> Following {
        let plan = progress.plan
        let skipped = progress.cleared.subtracting(progress.done).count
        let percent = progress.totalDays > 0 ? progress.done.count * 100 / progress.totalDays : 0
        let days = progress.enrolment.weekdays.map(\.shortName).joined(separator: ", ")
        return Following(
            title: plan.title,
            schedule: "From \(progress.enrolment.startDay.withWeekday) on \(days)",
            done: "Done \(progress.done.count) of \(progress.totalDays) days (\(percent) %)" + (skipped > 0 ? ", \(skipped) skipped" : ""),
            fraction: progress.totalDays > 0 ? Double(progress.done.count) / Double(progress.totalDays) : 0,
            next: nextLine(progress, today: today),
            repeatLabel: "Repeat week \(progress.weekToRepeat + 1)",
            canSkip: !progress.finished,
            weeks: weeks(progress))
    }

    /// Each week with a mark per day.
    public static func weeks(_ progress: PlanProgress) -> [WeekRow] {
        let next = progress.next
        let short = progress.shortAttempt != nil
        return progress.plan.weeks.enumerated().map { w, week in
            let marks = week.days.indices.map { d -> Mark in
                let slot = TrainingPlan.Slot(week: w, day: d)
                if progress.done.contains(slot) { return .done }
                if progress.cleared.contains(slot) { return .skipped }
                if slot == next { return short ? .short : .due }
                return .todo
            }
            // A week all alike in one word ("To do", "Done"); else day by day.
            let days = marks.enumerated().map { "\($0.offset == 0 ? "Day" : "day") \($0.offset + 1) \($0.element.word)" }
            let subtitle = Set(marks).count == 1 && marks.count > 1 && marks[0] != .due
                ? "All \(marks.count) days \(marks[0].word)" : days.joined(separator: ", ")
            return WeekRow(number: w + 1, title: "Week \(w + 1)", marks: marks, glyphs: marks.map(\.glyph).joined(separator: " "),
                           subtitle: subtitle, isCurrent: next?.week == w)
        }
    }

    /// "Next: week 2, day 1 (31:00) today", "… on Wed 2026-12-02", "… was due Mon 2026-11-23".
    public static func nextLine(_ progress: PlanProgress, today: CalendarDay) -> String {
        guard let slot = progress.next else { return "Plan finished: every day done or skipped." }
        let length = progress.plan.workout(at: slot)?.plannedDuration.map { " (\(TimeText.clock($0.seconds)))" } ?? ""
        switch PlanDayCard.when(progress.scheduledDay, today: today) {
        case .today: return "Next: \(slot)\(length) today"
        case .later(let day): return "Next: \(slot)\(length) on \(day.withWeekday)"
        case .overdue(let day): return "Next: \(slot)\(length) was due \(day.withWeekday)"
        }
    }

    /// The days picked, Monday first, as `--days` spells them; nil when none is picked.
    public static func daysArgument(_ days: [Weekday]) -> String? {
        days.isEmpty ? nil : days.sorted { $0.index < $1.index }.map(\.rawValue).joined(separator: ",")
    }
}
