import FoundationEssentials
import RunWalkCore
import RunWalkStore

/// Resolving and finishing the plan day a session runs (`runwalk run next`, `replay --workout next`,
/// `runwalk-app --workout next`): resolved before the session, its introduction is the first
/// cue, and the finished session marks it done or cut short. A value the request carries: no
/// global state.
extension PlanDay {
    /// The active plan's next day; an input error when no plan is followed or it is finished.
    public static func next(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SessionFailure) -> PlanDay {
        let (_, stored, progress) = try PlanStoreAccess(environment: environment).requireActiveInExisting()
        guard let slot = progress.next, let workout = progress.plan.workout(at: slot) else {
            throw .input("plan \(progress.plan.name) is finished: nothing next (`runwalk plan status`)")
        }
        return PlanDay(enrolmentID: stored.enrolment.id, plan: progress.plan, slot: slot, workout: workout)
    }

    /// The line a front end shows when it resolves the day: `Couch to 5K, week 1, day 1: 5m warmup, …`.
    public var announcement: String { "\(plan.title), \(slot): \(workout.spec)" }

    /// What became of the day when the session finished.
    public struct Result: Sendable, Equatable {
        public enum Mark: Sendable, Equatable {
            /// Enough of the run time was run: the day is done.
            case done
            /// Cut short: the day is offered again.
            case short
            /// The session was not recorded, so the day stays to do.
            case notRecorded
            /// The store refused the mark (the message says why).
            case failed
        }
        public var day: PlanDay
        public var mark: Mark
        /// Of the planned run time, the part run (0…1).
        public var runFraction: Double?
        /// The lines said to the runner (without the program's prefix).
        public var lines: [String]
    }

    /// Marks the day done (or cut short) by the finished session and says what is next.
    /// Never throws: the session is saved whatever happens here.
    func finish(_ summary: Summary, sessionID: Int64?, doneFraction: Double,
                environment: [String: String]) -> Result {
        guard let sessionID else {
            return Result(day: self, mark: .notRecorded, lines: ["plan: the session was not recorded, so \(slot) stays to do"])
        }
        do throws(SessionFailure) {
            let today = try PlanCalendar.today(environment: environment)
            let fraction = RunCompletion.fraction(planned: workout, phases: summary.phases)
            let done = fraction >= doneFraction - 1e-9
            let access = PlanStoreAccess(environment: environment)
            let store = try access.open()
            try PlanStoreAccess.call {
                try store.appendPlanLog(enrolmentID: enrolmentID, PlanLogEntry(
                    kind: done ? .done : .short, slot: slot, day: today, sessionID: sessionID, runFraction: fraction))
            }
            let percent = "\(Int((fraction * 100).rounded(.down))) % of the run time"
            var lines = [done ? "plan: \(slot) of \(plan.title) done (\(percent))"
                         : "plan: \(slot) cut short (\(percent), \(Int((doneFraction * 100).rounded())) % needed): it is offered again"]
            if let (_, progress) = try access.active(store) {
                lines.append("plan: " + PlanNextLine.render(progress, today: today))
            }
            return Result(day: self, mark: done ? .done : .short, runFraction: fraction, lines: lines)
        } catch {
            return Result(day: self, mark: .failed, lines: ["plan: could not record the plan day: \(error.message)"])
        }
    }
}
