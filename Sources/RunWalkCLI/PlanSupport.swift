import FoundationEssentials
import RunWalkCore
import RunWalkIO
import RunWalkRuntime
import RunWalkStore

/// "Today" for plans and the calendar: `RUNWALK_TODAY=YYYY-MM-DD` (tests, and a runner who
/// logs yesterday's run late), else the system's UTC date.
enum Today {
    static func day(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CalendarDay {
        if let text = environment["RUNWALK_TODAY"], !text.isEmpty {
            guard let day = CalendarDay(parsing: text) else {
                throw UserFacingError.input("RUNWALK_TODAY=\(text): expected a date as YYYY-MM-DD")
            }
            return day
        }
        return CalendarDay(UTCTime(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)))
    }
}

/// Built-in plans and the user's (`plans/NAME.json` in the config folder).
enum PlanCatalog {
    static func userPlans() throws -> [TrainingPlan] {
        do { return try PlanLibraryFile().load() } catch let error as PlanFileError {
            throw UserFacingError.input(error.description)
        } catch let error as InputError {
            throw UserFacingError.input(error.description)
        }
    }

    /// Built-ins first, then the user's.
    static func all() throws -> [(plan: TrainingPlan, builtIn: Bool)] {
        TrainingPlan.builtIns.map { ($0, true) } + (try userPlans()).map { ($0, false) }
    }

    /// The plan of this name; a missing one is an input error that lists what there is.
    static func plan(named name: String) throws -> TrainingPlan {
        let key = name.lowercased()
        if let plan = try all().first(where: { $0.plan.name == key }) { return plan.plan }
        let names = try all().map(\.plan.name).joined(separator: ", ")
        throw UserFacingError.input("no plan named \(name) (plans: \(names))")
    }
}

/// The store as plan commands use it: created when missing (starting a plan comes before
/// any session), errors mapped to exit codes.
enum PlanStore {
    static func open() throws -> RunWalkStore {
        do { return try RunWalkStore(location: StoreAccess.location, options: StoreAccess.options) } catch let error as StoreError {
            throw UserFacingError.runtime(error.description)
        }
    }

    /// The store when it exists (reading commands never create one); nil before the first session or plan.
    static func openIfPresent() throws -> RunWalkStore? {
        do { return try RunWalkStore.openIfPresent(location: StoreAccess.location, options: StoreAccess.options) } catch let error as StoreError {
            throw UserFacingError.runtime(error.description)
        }
    }

    /// The existing store with its active enrolment, or the input error saying no plan is followed.
    static func requireActiveInExisting() throws -> (store: RunWalkStore, stored: StoredEnrolment, progress: PlanProgress) {
        guard let store = try openIfPresent() else { throw UserFacingError.input(PlanStoreError.noActivePlan.description) }
        let (stored, progress) = try requireActive(store)
        return (store, stored, progress)
    }

    /// Runs a store call, mapping its errors: plan mistakes are the runner's (2), the rest runtime (1).
    static func call<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PlanStoreError {
            throw UserFacingError.input(error.description)
        } catch let error as StoreError {
            throw UserFacingError.runtime(error.description)
        }
    }

    /// The active enrolment with its progress (the plan from its stored JSON); nil when none.
    static func active(_ store: RunWalkStore) throws -> (stored: StoredEnrolment, progress: PlanProgress)? {
        guard let stored = try call({ try store.activeEnrolment() }) else { return nil }
        let plan: TrainingPlan
        do { plan = try TrainingPlan(json: stored.planJSON) } catch {
            throw UserFacingError.runtime("\(StoreAccess.location.databasePath): enrolment \(stored.enrolment.id): stored plan unreadable: \(error)")
        }
        return (stored, PlanProgress(plan: plan, enrolment: stored.enrolment, log: stored.log))
    }

    /// The active enrolment, or the input error saying there is none.
    static func requireActive(_ store: RunWalkStore) throws -> (stored: StoredEnrolment, progress: PlanProgress) {
        guard let active = try active(store) else { throw UserFacingError.input(PlanStoreError.noActivePlan.description) }
        return active
    }
}

/// The plan day a session is running (`runwalk run next`, `replay --workout next`): set when
/// the workout argument "next" is resolved, read when the session's options are made (the
/// first cue names the day) and when it finishes (the day is marked done or cut short).
final class PlanFollowing: @unchecked Sendable {
    /// The plan day of this process's session.
    struct Pending {
        var enrolmentID: Int64
        var plan: TrainingPlan
        var slot: TrainingPlan.Slot
        var workout: Workout
        var doneFraction = RunCompletion.defaultDoneFraction
    }

    // One session per process: the CLI's commands run one at a time on one thread.
    private static let lock = Lock()
    nonisolated(unsafe) private static var pending: Pending?

    static var current: Pending? { lock.withLock { pending } }

    /// Resolves "next": the active plan's next day, remembered for the session's end.
    static func resolveNext() throws -> Workout {
        let (_, stored, progress) = try PlanStore.requireActiveInExisting()
        guard let slot = progress.next, let workout = progress.plan.workout(at: slot) else {
            throw UserFacingError.input("plan \(progress.plan.name) is finished: nothing next (`runwalk plan status`)")
        }
        lock.withLock { pending = Pending(enrolmentID: stored.enrolment.id, plan: progress.plan, slot: slot, workout: workout) }
        Terminal.warning("runwalk: \(progress.plan.title), \(slot): \(workout.spec)")
        return workout
    }

    /// Adds the plan day's introduction to the options and notes the done fraction from the settings.
    static func apply(to options: inout SessionOptions, settings: UserSettings) {
        lock.withLock {
            guard var day = pending else { return }
            day.doneFraction = settings.planDoneFraction ?? RunCompletion.defaultDoneFraction
            pending = day
            options.introduction = day.plan.introduction(for: day.slot, language: options.language)
        }
    }

    /// Marks the plan day done (or cut short) by the finished session; says what is next.
    /// Never fails the command: the session is saved whatever happens here.
    static func sessionFinished(_ summary: Summary, sessionID: Int64?) {
        guard let day = current else { return }
        guard let sessionID else {
            Terminal.warning("runwalk: plan: the session was not recorded, so \(day.slot) stays to do")
            return
        }
        do {
            let today = try Today.day()
            let fraction = RunCompletion.fraction(planned: day.workout, phases: summary.phases)
            let done = fraction >= day.doneFraction - 1e-9
            let store = try PlanStore.open()
            try store.appendPlanLog(enrolmentID: day.enrolmentID, PlanLogEntry(
                kind: done ? .done : .short, slot: day.slot, day: today, sessionID: sessionID, runFraction: fraction))
            let percent = "\(Int((fraction * 100).rounded(.down))) % of the run time"
            if done {
                Terminal.warning("runwalk: plan: \(day.slot) of \(day.plan.title) done (\(percent))")
            } else {
                Terminal.warning("runwalk: plan: \(day.slot) cut short (\(percent), \(Int((day.doneFraction * 100).rounded())) % needed): it is offered again")
            }
            if let (_, progress) = try PlanStore.active(store) {
                Terminal.warning("runwalk: plan: " + PlanText.nextLine(progress, today: today))
            }
        } catch {
            Terminal.warning("runwalk: plan: could not record the plan day: \((error as? UserFacingError)?.message ?? "\(error)")")
        }
    }
}
