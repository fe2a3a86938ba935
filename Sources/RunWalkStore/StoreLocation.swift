#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials

/// Where the store lives: `$RUNWALK_DATA_DIR`, else `$XDG_DATA_HOME/runwalk`, else
/// `~/.local/share/runwalk`; the database is `runwalk.sqlite` in that folder.
public struct StoreLocation: Sendable, Equatable {
    /// The data folder.
    public var directory: String

    /// The folder as given (tests pass a temporary folder).
    public init(directory: String) {
        self.directory = directory
    }

    /// The folder chosen from the environment, as DESIGN.md's Storage section describes.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> StoreLocation {
        if let dir = environment["RUNWALK_DATA_DIR"], !dir.isEmpty { return StoreLocation(directory: dir) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return StoreLocation(directory: xdg + "/runwalk")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? accountHome()
        return StoreLocation(directory: home + "/.local/share/runwalk")
    }

    /// The home folder of the account running this (HOME unset): from the password database.
    private static func accountHome() -> String {
        guard let entry = getpwuid(getuid()), let home = entry.pointee.pw_dir else { return "/" }
        return String(cString: home)
    }

    /// The SQLite database file.
    public var databasePath: String { directory + "/runwalk.sqlite" }

    /// The folder holding one lock file per session being recorded.
    public var locksDirectory: String { directory + "/locks" }

    /// Whether a database exists yet (commands that only read never create one).
    public var databaseExists: Bool { FileManager.default.fileExists(atPath: databasePath) }
}
