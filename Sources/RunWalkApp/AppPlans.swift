import Foundation
import RunWalkAppModel
import RunWalkCore
import RunWalkIO
import RunWalkStore

/// The app's way to training plans: the same store calls and files as `runwalk plan
/// start|skip|repeat|stop|status` and `runwalk run next`, so the CLI and the app agree.
/// Every failure is one line to show (a banner or toast), never a crash.
enum AppPlans {
    typealias Problem = PlanPageProblem

    /// Today as the CLI's plan commands see it (`RUNWALK_TODAY`, else the UTC date).
    static func today() throws(Problem) -> CalendarDay {
        let now = UTCTime(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
        return try PlanToday.day(environment: ProcessInfo.processInfo.environment, now: now).get()
    }

    /// Built-in plans, then the user's (`plans/NAME.json` in the config folder). A file that
    /// cannot be read is left out and told (file, line and column), the others still listed.
    static func catalog() -> (plans: [(plan: TrainingPlan, builtIn: Bool)], problems: [String]) {
        var plans = TrainingPlan.builtIns.map { (plan: $0, builtIn: true) }
        var problems: [String] = []
        let library = PlanLibraryFile()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: library.directory.path)) ?? []
        for file in names.filter({ $0.hasSuffix(".json") }).sorted() {
            do { plans.append((try PlanLibraryFile.read(path: library.directory.appendingPathComponent(file).path), false)) } catch {
                problems.append("\(error)")
            }
        }
        return (plans, problems)
    }

    /// The plan of this name, read again now (an imported plan's file may have gone since it was listed).
    static func plan(named name: String) throws(Problem) -> TrainingPlan {
        if let plan = TrainingPlan.builtIn(named: name) { return plan }
        let path = PlanLibraryFile().url(of: name).path
        do { return try PlanLibraryFile.read(path: path) } catch let error as InputError {
            if case .notFound = error { throw Problem("\(UserText.path(path)): no such file: the plan \(name) was removed") }
            throw Problem(error.description)
        } catch { throw Problem("\(error)") }
    }

    /// The store when it exists (reading never creates one); nil before the first session or plan.
    private static func existingStore() throws(Problem) -> RunWalkStore? {
        do { return try RunWalkStore.openIfPresent(location: .fromEnvironment(), options: .fromEnvironment()) } catch {
            throw Problem("\(error)")
        }
    }

    /// The store, created when missing (starting a plan may come before any session).
    private static func store() throws(Problem) -> RunWalkStore {
        do { return try RunWalkStore(location: .fromEnvironment(), options: .fromEnvironment()) } catch { throw Problem("\(error)") }
    }

    /// The plan being followed with its progress (the plan from the enrolment's stored JSON); nil when none.
    static func following() throws(Problem) -> PlanProgress? {
        guard let store = try existingStore() else { return nil }
        return try following(store)
    }

    private static func following(_ store: RunWalkStore) throws(Problem) -> PlanProgress? {
        let stored: StoredEnrolment?
        do { stored = try store.activeEnrolment() } catch { throw Problem("\(error)") }
        guard let stored else { return nil }
        let plan: TrainingPlan
        do { plan = try TrainingPlan(json: stored.planJSON) } catch {
            throw Problem("\(UserText.path(StoreLocation.fromEnvironment().databasePath)): plan \(stored.enrolment.planName): "
                          + "the stored plan cannot be read (\(error)): stop it and start it again")
        }
        return PlanProgress(plan: plan, enrolment: stored.enrolment, log: stored.log)
    }

    /// The day `runwalk run next` would run now: the active enrolment's next slot.
    static func nextDay() throws(Problem) -> PlanDay {
        guard let progress = try following() else { throw Problem(PlanStoreError.noActivePlan.description) }
        guard let day = PlanDay(progress: progress) else {
            throw Problem("plan \(progress.plan.name) is finished: nothing next")
        }
        return day
    }

    /// Starts following `name` on `days` from today (`runwalk plan start NAME --days …`).
    static func start(name: String, days: [Weekday]) throws(Problem) -> String {
        guard !days.isEmpty else { throw Problem("Pick at least one day of the week to run on") }
        let plan = try plan(named: name)
        let today = try today()
        let store = try store()
        do { try store.startEnrolment(planName: plan.name, planJSON: plan.json, startDay: today, weekdays: days) } catch {
            throw Problem("\(error)")
        }
        // Toasts are short (a 360 px screen shows about 26 characters); the page tells the rest.
        return "Plan started"
    }

    /// Skips the next day (`runwalk plan skip`).
    static func skip() throws(Problem) -> String {
        let (store, progress) = try requireFollowing()
        guard let slot = progress.next else { throw Problem("plan \(progress.plan.name) is finished: nothing to skip") }
        let entry = PlanLogEntry(kind: .skip, slot: slot, day: try today())
        try append(entry, to: store, progress)
        return "Skipped day \(slot.day + 1) of week \(slot.week + 1)"
    }

    /// Does the current (or just finished) week again (`runwalk plan repeat`).
    static func repeatWeek() throws(Problem) -> String {
        let (store, progress) = try requireFollowing()
        let week = progress.weekToRepeat
        try append(PlanLogEntry(kind: .repeatWeek, slot: TrainingPlan.Slot(week: week, day: 0), day: try today()), to: store, progress)
        return "Week \(week + 1) again"
    }

    /// Stops following the plan (`runwalk plan stop`); its history stays.
    static func stop() throws(Problem) -> String {
        let (store, progress) = try requireFollowing()
        do { try store.stopEnrolment(on: try today()) } catch let error as Problem { throw error } catch { throw Problem("\(error)") }
        return "Plan stopped (\(progress.done.count) of \(progress.totalDays) days done)"
    }

    private static func requireFollowing() throws(Problem) -> (RunWalkStore, PlanProgress) {
        guard let store = try existingStore(), let progress = try following(store) else {
            throw Problem(PlanStoreError.noActivePlan.description)
        }
        return (store, progress)
    }

    private static func append(_ entry: PlanLogEntry, to store: RunWalkStore, _ progress: PlanProgress) throws(Problem) {
        do { try store.appendPlanLog(enrolmentID: progress.enrolment.id, entry) } catch { throw Problem("\(error)") }
    }
}
