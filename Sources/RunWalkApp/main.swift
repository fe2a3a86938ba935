import Foundation
import RunWalkAppModel
import RunWalkCore
import RunWalkHost

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
// A workout given on the command line is checked before any window opens (exit 2 when bad).
var initialWorkout: SessionRequest.WorkoutChoice?
if let text = options.workout, text.lowercased() == "next" {
    // The active plan's next day, marked done at the end like `runwalk run next`.
    do { initialWorkout = .planDay(try PlanDay.next()) } catch {
        AppLog.warning("runwalk-app: --workout next: \(error.message)")
        exit(2)
    }
} else if let text = options.workout {
    let spec = AppData.library().entry(named: text)?.spec ?? text
    do { initialWorkout = .workout(try Workout(parsing: spec)) } catch {
        AppLog.warning("runwalk-app: --workout: \(error.description)\n\(error.caretLines(spec: spec))")
        exit(2)
    }
}
let controller = AppController(options: options, initialWorkout: initialWorkout)
controller.initialPage = page
exit(controller.run())
