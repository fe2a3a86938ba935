import ArgumentParser
import FoundationEssentials
import RunWalkCore
import RunWalkDesktop

/// `run`'s hands-free options; each defaults to settings.conf (`notify`, `haptics`, `music`), else on / none.
struct HandsFreeArguments: ParsableArguments {
    enum Switch: String, ExpressibleByArgument, CaseIterable { case on, off }

    @Option(name: .long, help: "A notification at each phase change, with Pause and Skip: on or off (default: settings.conf's notify, else on).")
    var notify: Switch?

    @Option(name: .long, help: "Haptic feedback through feedbackd at phase changes, the last seconds and the end: on or off (default: settings.conf's haptics, else on).")
    var haptics: Switch?

    @Option(name: .long, help: "A URI or file (a playlist) opened on your music player (MPRIS) at the start and paused at the end (default: settings.conf's music.WORKOUT, else music).")
    var music: String?

    /// The hands-free options for these arguments over `settings` for `workout` (as typed: a
    /// saved workout's name picks its `music.NAME`); `live` sessions hold the sleep inhibitor.
    func options(_ settings: UserSettings, workout: String, live: Bool) -> HandsFree.Options {
        var options = HandsFree.Options(settings: settings, workoutName: workout, live: live)
        if let notify { options.notifications = notify == .on }
        if let haptics { options.haptics = haptics == .on }
        if let music { options.musicURI = HandsFree.Options.expandingHome(music) }
        return options
    }
}
