import Foundation
import RunWalkAppModel
import RunWalkCore

// runwalk-app: the GTK 4 / libadwaita front end (Phosh, Plasma Mobile, the desktop).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    AppLog.warning(AppOptions.usage + "\n    --page start|plans|workouts|settings|history opens on that page.")
    exit(0)
}
let options: AppOptions
let page: AppPage?
do {
    let taken = try AppPage.take(from: arguments)
    page = taken.page
    options = try AppOptions(arguments: taken.rest)
} catch {
    AppLog.warning(error.description)
    exit(2)
}
// A workout given on the command line is checked before any window opens (exit 2 when bad);
// "next" is the next day of the plan followed, as for `runwalk run next`.
var initialWorkout: Workout?
var initialPlanDay: PlanDay?
if let text = options.workout, text.lowercased() == "next" {
    do { initialPlanDay = try AppPlans.nextDay() } catch {
        AppLog.warning("runwalk-app: --workout next: \(error.description)")
        exit(2)
    }
} else if let text = options.workout {
    let spec = AppData.library().entry(named: text)?.spec ?? text
    do { initialWorkout = try Workout(parsing: spec) } catch {
        AppLog.warning("runwalk-app: --workout: \(error.description)\n\(error.caretLines(spec: spec))")
        exit(2)
    }
}
let controller = AppController(options: options, initialWorkout: initialWorkout)
controller.initialPage = page
controller.initialPlanDay = initialPlanDay
exit(controller.run())
