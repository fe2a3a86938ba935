import RunWalkAppModel
import RunWalkCore
import RunWalkIO
import RunWalkStore

/// Marks a plan day done or cut short when its session ended, as `runwalk run next` does.
///
/// Until the shared session service marks plan days itself (issue 29, item 1, "finishing (summary
/// stored, plan day marked)"): when it does, this file and its one call in AppController go.
enum AppPlanFinish {
    /// The line to show: "Week 1 · Day 1 done", "Cut short: offered again", or why nothing was marked.
    static func finish(_ day: PlanDay, summary: Summary?, sessionID: Int64?) -> String? {
        guard let summary else { return nil }
        guard let sessionID else { return "The run was not saved, so week \(day.slot.week + 1), day \(day.slot.day + 1) stays to do" }
        let doneFraction = ((try? SettingsFile().load())?.planDoneFraction) ?? RunCompletion.defaultDoneFraction
        let fraction = RunCompletion.fraction(planned: day.workout, phases: summary.phases)
        let done = fraction >= doneFraction - 1e-9
        do {
            let today = try AppPlans.today()
            let store = try RunWalkStore(location: .fromEnvironment(), options: .fromEnvironment())
            try store.appendPlanLog(enrolmentID: day.enrolmentID, PlanLogEntry(
                kind: done ? .done : .short, slot: day.slot, day: today, sessionID: sessionID, runFraction: fraction))
        } catch {
            return "The plan day could not be marked: \(error)"
        }
        // Short for a toast at 360 px; the start page's card tells how much of it was run.
        return done ? "Week \(day.slot.week + 1) · Day \(day.slot.day + 1) done" : "Cut short: offered again"
    }
}
