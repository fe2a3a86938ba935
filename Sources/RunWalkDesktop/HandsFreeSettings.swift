import FoundationEssentials
import RunWalkCore

extension HandsFree.Options {
    /// The options settings.conf asks for (`notify`, `haptics`, `music`, `music.NAME` for the
    /// saved workout `workoutName`), each on by default; `live` sessions hold the sleep inhibitor.
    /// Every front end (`runwalk run`, the app) starts from these; command-line flags go over them.
    public init(settings: UserSettings, workoutName: String?, live: Bool) {
        self.init()
        notifications = settings.notify ?? true
        haptics = settings.haptics ?? true
        inhibitSleep = live
        musicURI = (workoutName.flatMap { settings.workoutMusic[$0.lowercased()] } ?? settings.music).map(Self.expandingHome)
    }

    /// `~/x` is the home folder's `x` (settings.conf is not read by a shell).
    public static func expandingHome(_ text: String) -> String {
        guard text.hasPrefix("~/") else { return text }
        return FileManager.default.homeDirectoryForCurrentUser.path + String(text.dropFirst(1))
    }
}
