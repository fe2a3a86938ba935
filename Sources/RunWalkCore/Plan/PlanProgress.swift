/// A runner's enrolment in a plan: which plan, from when, on which days of the week.
public struct PlanEnrolment: Sendable, Equatable {
    /// The enrolment's number in the store.
    public var id: Int64
    /// The plan followed (its name).
    public var planName: String
    /// The first day the plan may be run.
    public var startDay: CalendarDay
    /// The training days, Monday first.
    public var weekdays: [Weekday]

    public init(id: Int64, planName: String, startDay: CalendarDay, weekdays: [Weekday]) {
        self.id = id
        self.planName = planName
        self.startDay = startDay
        self.weekdays = weekdays
    }
}

/// One thing that happened to an enrolment, in order: a day done (by a session), a session
/// cut short, a day skipped, a week to do again.
public struct PlanLogEntry: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable, CaseIterable {
        /// The session ran at least the done fraction of the day's run time.
        case done
        /// The session ran less: the day is offered again.
        case short
        /// The runner skipped the day.
        case skip
        /// The runner asked to do the slot's week again.
        case repeatWeek = "repeat"
    }

    /// What happened.
    public var kind: Kind
    /// The plan day (for `repeatWeek`, day 0 of the week repeated).
    public var slot: TrainingPlan.Slot
    /// The date it happened on.
    public var day: CalendarDay
    /// The session that did it (done and short).
    public var sessionID: Int64?
    /// Share of the planned run time the session did (done and short).
    public var runFraction: Double?

    public init(kind: Kind, slot: TrainingPlan.Slot, day: CalendarDay, sessionID: Int64? = nil, runFraction: Double? = nil) {
        self.kind = kind
        self.slot = slot
        self.day = day
        self.sessionID = sessionID
        self.runFraction = runFraction
    }
}

/// Where a runner is in a plan, worked out from the enrolment and its log.
///
/// The log is replayed in order: a day done or skipped is cleared; "repeat week N" makes
/// that week's days (and any later ones) to do again. The next day is the first one not
/// cleared, so a deleted session (its log entry goes with it) makes its day due again.
public struct PlanProgress: Sendable, Equatable {
    /// The plan as it was started.
    public let plan: TrainingPlan
    /// Whose progress this is.
    public let enrolment: PlanEnrolment
    /// What happened, oldest first.
    public let log: [PlanLogEntry]
    /// Days done or skipped, after repeats.
    public private(set) var cleared: Set<TrainingPlan.Slot> = []
    /// Days done by a session, after repeats.
    public private(set) var done: Set<TrainingPlan.Slot> = []

    public init(plan: TrainingPlan, enrolment: PlanEnrolment, log: [PlanLogEntry]) {
        self.plan = plan
        self.enrolment = enrolment
        self.log = log
        for entry in log {
            switch entry.kind {
            case .done:
                cleared.insert(entry.slot)
                done.insert(entry.slot)
            case .skip:
                cleared.insert(entry.slot)
            case .short:
                break
            case .repeatWeek:
                cleared = cleared.filter { $0.week < entry.slot.week }
                done = done.filter { $0.week < entry.slot.week }
            }
        }
    }

    /// The next day to run; nil when the plan is finished.
    public var next: TrainingPlan.Slot? {
        plan.slots.first { !cleared.contains($0) }
    }

    /// Whether every day is done or skipped.
    public var finished: Bool { next == nil }

    /// Days in the plan.
    public var totalDays: Int { plan.slots.count }

    /// The latest session that tried the next day and fell short, if it was tried since it last became due.
    public var shortAttempt: PlanLogEntry? {
        guard let next else { return nil }
        guard let last = log.lastIndex(where: { $0.kind == .short && $0.slot == next }) else { return nil }
        // A repeat after the attempt makes the day new again.
        if log[log.index(after: last)...].contains(where: { $0.kind == .repeatWeek }) { return nil }
        return log[last]
    }

    /// The week `plan repeat` would repeat: the current week once any of it is done or skipped,
    /// else the week before it (the one just finished).
    public var weekToRepeat: Int {
        guard let next else { return max(0, plan.weeks.count - 1) }
        if next.day > 0 || next.week == 0 { return next.week }
        return next.week - 1
    }

    /// The last day something was done or skipped.
    public var lastActivityDay: CalendarDay? {
        log.filter { $0.kind == .done || $0.kind == .skip }.map(\.day).max()
    }

    /// The training day the next workout is scheduled for: the first training day on or after
    /// the start, and after the last day something was done (one workout a day).
    public var scheduledDay: CalendarDay? {
        guard next != nil else { return nil }
        let earliest = max(enrolment.startDay, lastActivityDay.map { $0.adding(days: 1) } ?? enrolment.startDay)
        return trainingDay(onOrAfter: earliest)
    }

    /// The remaining days laid on the training days from `today` (or the scheduled day, if later).
    public func projected(today: CalendarDay, limit: Int = 400) -> [(slot: TrainingPlan.Slot, day: CalendarDay)] {
        guard let scheduled = scheduledDay else { return [] }
        var day = trainingDay(onOrAfter: max(scheduled, today))
        var out: [(slot: TrainingPlan.Slot, day: CalendarDay)] = []
        for slot in plan.slots where !cleared.contains(slot) {
            guard out.count < limit else { break }
            out.append((slot, day))
            day = trainingDay(onOrAfter: day.adding(days: 1))
        }
        return out
    }

    /// The first training day on or after `day`.
    public func trainingDay(onOrAfter day: CalendarDay) -> CalendarDay {
        let weekdays = enrolment.weekdays.isEmpty ? TrainingPlan.defaultDays(perWeek: plan.daysPerWeek) : enrolment.weekdays
        for offset in 0..<7 where weekdays.contains(where: { $0.index == day.adding(days: offset).weekday }) {
            return day.adding(days: offset)
        }
        return day
    }
}
