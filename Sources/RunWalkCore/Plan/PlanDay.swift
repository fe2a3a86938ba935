/// The plan day a session runs: the active enrolment's next slot, as `runwalk run next`,
/// `runwalk-app --workout next` and the app's plan card resolve it. The request carries it (no
/// global state): its introduction is the first cue, and the finished session marks it done or
/// cut short.
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
