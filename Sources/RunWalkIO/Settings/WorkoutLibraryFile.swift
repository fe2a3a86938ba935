import Foundation
import RunWalkCore

/// Where RunWalk keeps settings: `$RUNWALK_CONFIG_DIR`, else `$XDG_CONFIG_HOME/runwalk`, else `~/.config/runwalk`.
public enum ConfigDirectory {
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let dir = environment["RUNWALK_CONFIG_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("runwalk")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config/runwalk")
    }

    /// A config file's text; nil when there is no such file. An unreadable one is an input error naming it.
    static func text(of url: URL) throws -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do { return try String(contentsOf: url, encoding: .utf8) } catch {
            throw InputError.unreadable(path: url.path, reason: error.localizedDescription)
        }
    }
}

/// The user's named workouts on disk (`workouts.txt` in the config folder).
public struct WorkoutLibraryFile {
    public let url: URL

    public init(directory: URL = ConfigDirectory.url()) {
        url = directory.appendingPathComponent("workouts.txt")
    }

    /// Reads the library; a missing file is an empty library. Errors name the file, line and column.
    public func load() throws -> WorkoutLibrary {
        guard let text = try ConfigDirectory.text(of: url) else { return WorkoutLibrary() }
        return WorkoutLibrary(userEntries: try Self.entries(in: text, path: url.path))
    }

    /// Parses workouts from text, naming `path` in errors.
    public static func entries(in text: String, path: String) throws -> [WorkoutLibrary.Entry] {
        do { return try WorkoutLibrary.parse(text) } catch {
            throw ConfigFileAtPath(path: path, error: error)
        }
    }

    /// Writes the library atomically (a crash leaves the old file or the new one, never half of one).
    public func save(_ library: WorkoutLibrary) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(library.serialised().utf8).write(to: url, options: .atomic)
    }
}

/// A workouts or settings file's mistake, with the file it is in.
public struct ConfigFileAtPath: Error, CustomStringConvertible {
    public var path: String
    public var error: ConfigFileError
    public var description: String { "\(path): \(error.description)" }
}
