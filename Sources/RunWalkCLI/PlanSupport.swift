import FoundationEssentials
import RunWalkCore
import RunWalkHost
import RunWalkStore

// Plans, their store and "today" live with the session service (RunWalkHost), which marks a
// plan day when the session that ran it finishes; these map its failures to exit codes.

/// "Today" for plans and the calendar: `RUNWALK_TODAY=YYYY-MM-DD`, else the system's UTC date.
enum Today {
    static func day(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CalendarDay {
        do { return try PlanCalendar.today(environment: environment) } catch { throw error.userFacing }
    }
}

/// Built-in plans and the user's (`plans/NAME.json` in the config folder).
enum PlanCatalog {
    static func userPlans() throws -> [TrainingPlan] {
        do { return try PlanLibrary.userPlans() } catch { throw error.userFacing }
    }

    /// Built-ins first, then the user's.
    static func all() throws -> [(plan: TrainingPlan, builtIn: Bool)] {
        do { return try PlanLibrary.all() } catch { throw error.userFacing }
    }

    /// The plan of this name; a missing one is an input error that lists what there is.
    static func plan(named name: String) throws -> TrainingPlan {
        do { return try PlanLibrary.plan(named: name) } catch { throw error.userFacing }
    }
}

/// The store as plan commands use it: created when missing (starting a plan comes before
/// any session), errors mapped to exit codes.
enum PlanStore {
    private static var access: PlanStoreAccess { PlanStoreAccess() }

    static func open() throws -> RunWalkStore {
        do { return try access.open() } catch { throw error.userFacing }
    }

    /// The store when it exists (reading commands never create one); nil before the first session or plan.
    static func openIfPresent() throws -> RunWalkStore? {
        do { return try access.openIfPresent() } catch { throw error.userFacing }
    }

    /// The existing store with its active enrolment, or the input error saying no plan is followed.
    static func requireActiveInExisting() throws -> (store: RunWalkStore, stored: StoredEnrolment, progress: PlanProgress) {
        do { return try access.requireActiveInExisting() } catch { throw error.userFacing }
    }

    /// Runs a store call, mapping its errors: plan mistakes are the runner's (2), the rest runtime (1).
    static func call<T>(_ body: () throws -> T) throws -> T {
        do { return try PlanStoreAccess.call(body) } catch { throw error.userFacing }
    }

    /// The active enrolment with its progress (the plan from its stored JSON); nil when none.
    static func active(_ store: RunWalkStore) throws -> (stored: StoredEnrolment, progress: PlanProgress)? {
        do { return try access.active(store) } catch { throw error.userFacing }
    }

    /// The active enrolment, or the input error saying there is none.
    static func requireActive(_ store: RunWalkStore) throws -> (stored: StoredEnrolment, progress: PlanProgress) {
        do { return try access.requireActive(store) } catch { throw error.userFacing }
    }
}
