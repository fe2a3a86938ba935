import FoundationEssentials
import RunWalkCore
import RunWalkIO
import RunWalkStore

/// Makes an existing data or config folder from an older RunWalk (0755, files 0644) owner-only,
/// and says so once. New folders and files are created private where they are made.
enum Privacy {
    /// RunWalk's files in the data folder (`locks/` holds only lock files).
    static let dataFiles = ["runwalk.sqlite", "runwalk.sqlite-wal", "runwalk.sqlite-shm", "runwalk.lock", "locks/"]
    /// RunWalk's files in the config folder.
    static let configFiles = ["workouts.txt", "settings.conf"]

    static func tightenExisting() {
        let changed = PrivateFolder.tighten(StoreLocation.fromEnvironment().directory, files: dataFiles)
            + PrivateFolder.tighten(ConfigDirectory.url().path, files: configFiles)
        guard !changed.isEmpty else { return }
        let shown = changed.prefix(3).map { UserText.path($0) }.joined(separator: ", ")
        Terminal.warning("runwalk: made \(changed.count) folder\(changed.count == 1 ? "" : "s") and file\(changed.count == 1 ? "" : "s") "
                         + "readable by you alone (they hold your GPS tracks and workouts): \(shown)\(changed.count > 3 ? ", …" : "")")
    }
}
