import Foundation
import RunWalkAppModel
import RunWalkCore

// runwalk-app: the GTK 4 / libadwaita front end (Phosh, Plasma Mobile, the desktop).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    AppLog.warning(AppOptions.usage)
    exit(0)
}
let options: AppOptions
do { options = try AppOptions(arguments: arguments) } catch {
    AppLog.warning(error.description)
    exit(2)
}
// A workout given on the command line is checked before any window opens (exit 2 when bad).
var initialWorkout: Workout?
if let text = options.workout {
    let spec = AppData.library().entry(named: text)?.spec ?? text
    do { initialWorkout = try Workout(parsing: spec) } catch {
        AppLog.warning("runwalk-app: --workout: \(error.description)\n\(error.caretLines(spec: spec))")
        exit(2)
    }
}
let controller = AppController(options: options, initialWorkout: initialWorkout)
exit(controller.run())
