import FoundationEssentials
import RunWalkCore
import RunWalkIO
import RunWalkStore

/// "Today" for plans and the calendar: `RUNWALK_TODAY=YYYY-MM-DD` (tests, and a runner who
/// logs yesterday's run late), else the system's UTC date.
public enum PlanCalendar {
    public static func today(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SessionFailure) -> CalendarDay {
        if let text = environment["RUNWALK_TODAY"], !text.isEmpty {
            guard let day = CalendarDay(parsing: text) else {
                throw .input("RUNWALK_TODAY=\(text): expected a date as YYYY-MM-DD")
            }
            return day
        }
        return CalendarDay(UTCTime(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)))
    }
}

/// Built-in plans and the user's (`plans/NAME.json` in the config folder).
public enum PlanLibrary {
    public static func userPlans() throws(SessionFailure) -> [TrainingPlan] {
        do { return try PlanLibraryFile().load() } catch let error as PlanFileError {
            throw .input(error.description)
        } catch let error as InputError {
            throw .input(error.description)
        } catch {
            throw .runtime("\(error)")
        }
    }

    /// Built-ins first, then the user's.
    public static func all() throws(SessionFailure) -> [(plan: TrainingPlan, builtIn: Bool)] {
        TrainingPlan.builtIns.map { ($0, true) } + (try userPlans()).map { ($0, false) }
    }

    /// The plan of this name; a missing one is an input error that lists what there is.
    public static func plan(named name: String) throws(SessionFailure) -> TrainingPlan {
        let key = name.lowercased()
        let plans = try all()
        if let plan = plans.first(where: { $0.plan.name == key }) { return plan.plan }
        throw .input("no plan named \(name) (plans: \(plans.map(\.plan.name).joined(separator: ", ")))")
    }
}

/// The store as plans use it: created when missing (starting a plan comes before any
/// session); plan mistakes are the runner's (input), the rest runtime.
public struct PlanStoreAccess: Sendable {
    public var location: StoreLocation
    public var options: RunWalkStore.Options

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        location = .fromEnvironment(environment)
        options = .fromEnvironment(environment)
    }

    public func open() throws(SessionFailure) -> RunWalkStore {
        try Self.call { try RunWalkStore(location: location, options: options) }
    }

    /// The store when it exists (reading never creates one); nil before the first session or plan.
    public func openIfPresent() throws(SessionFailure) -> RunWalkStore? {
        try Self.call { try RunWalkStore.openIfPresent(location: location, options: options) }
    }

    /// The existing store with its active enrolment, or the input error saying no plan is followed.
    public func requireActiveInExisting() throws(SessionFailure) -> (store: RunWalkStore, stored: StoredEnrolment, progress: PlanProgress) {
        guard let store = try openIfPresent() else { throw .input(PlanStoreError.noActivePlan.description) }
        let (stored, progress) = try requireActive(store)
        return (store, stored, progress)
    }

    /// Runs a store call, mapping its errors: plan mistakes are the runner's, the rest runtime.
    public static func call<T>(_ body: () throws -> T) throws(SessionFailure) -> T {
        do { return try body() } catch let error as PlanStoreError {
            throw .input(error.description)
        } catch let error as StoreError {
            throw .runtime(error.description)
        } catch let error as SessionFailure {
            throw error
        } catch {
            throw .runtime("\(error)")
        }
    }

    /// The active enrolment with its progress (the plan from its stored JSON); nil when none.
    public func active(_ store: RunWalkStore) throws(SessionFailure) -> (stored: StoredEnrolment, progress: PlanProgress)? {
        guard let stored = try Self.call({ try store.activeEnrolment() }) else { return nil }
        let plan: TrainingPlan
        do { plan = try TrainingPlan(json: stored.planJSON) } catch {
            throw .runtime("\(location.databasePath): enrolment \(stored.enrolment.id): stored plan unreadable: \(error)")
        }
        return (stored, PlanProgress(plan: plan, enrolment: stored.enrolment, log: stored.log))
    }

    /// The active enrolment, or the input error saying there is none.
    public func requireActive(_ store: RunWalkStore) throws(SessionFailure) -> (stored: StoredEnrolment, progress: PlanProgress) {
        guard let active = try active(store) else { throw .input(PlanStoreError.noActivePlan.description) }
        return active
    }
}

/// `Next: week 2, day 2 (31:00) on Wed 2026-11-11 (today): 5m warmup, …` or the plan finished.
public enum PlanNextLine {
    public static func render(_ progress: PlanProgress, today: CalendarDay) -> String {
        guard let slot = progress.next, let day = progress.plan.day(at: slot) else {
            return "Plan finished: every day done or skipped."
        }
        let length = progress.plan.workout(at: slot)?.plannedDuration.map { " (\(TimeText.clock($0.seconds)))" } ?? ""
        var when = ""
        if let scheduled = progress.scheduledDay {
            if scheduled == today {
                when = " today"
            } else if scheduled < today {
                when = " was due \(scheduled.withWeekday): run it when you can"
            } else {
                when = " on \(scheduled.withWeekday)"
            }
        }
        return "Next: \(slot)\(length)\(when): \(day.workout)"
    }
}
