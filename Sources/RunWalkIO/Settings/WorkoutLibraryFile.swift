import FoundationEssentials
import RunWalkCore

/// Where RunWalk keeps settings: `$RUNWALK_CONFIG_DIR`, else `$XDG_CONFIG_HOME/runwalk`, else `~/.config/runwalk`.
public enum ConfigDirectory {
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let dir = environment["RUNWALK_CONFIG_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("runwalk")
        }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(".config/runwalk")
    }

    /// A config file's text (a byte-order mark dropped); nil when there is no such file. An
    /// unreadable one, a FIFO or device in its place, or a line longer than `maximumLineBytes`
    /// is an input error naming it (and the line).
    static func text(of url: URL) throws -> String? {
        guard var bytes = try ConfigFileBytes.read(url.path, limit: maximumBytes) else { return nil }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        try ConfigFileBytes.checkLines(bytes, path: url.path, limit: maximumLineBytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError.unreadable(path: url.path, reason: "not UTF-8 text")
        }
        return text
    }

    /// The text of a workouts file given to import (`-`: standard input), checked as the
    /// config files are: a byte-order mark dropped, no line longer than `maximumLineBytes`.
    public static func importedText(of path: String) throws(InputError) -> String {
        var bytes = try ByteSource.contents(of: path, limit: maximumBytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        try ConfigFileBytes.checkLines(bytes, path: path, limit: maximumLineBytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A settings or workouts file larger than this is not one (a device, a mistake).
    public static let maximumBytes = 4 << 20
    /// The longest line of a settings, workouts or plan file (a plan export writes one day per line).
    public static let maximumLineBytes = 64 << 10

    /// Creates the folder (and those on the way to it) owner-only, tightening it if it exists.
    static func prepare(_ directory: URL) throws {
        try PrivateFolder.ensure(directory.path)
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

    /// Reads the good lines; the bad ones come back with the file's path, for the caller to
    /// report or to raise when the workout asked for is on one of them.
    public func loadLeniently() throws -> (library: WorkoutLibrary, problems: [(name: String?, error: ConfigFileAtPath)]) {
        guard let text = try ConfigDirectory.text(of: url) else { return (WorkoutLibrary(), []) }
        let read = WorkoutLibrary.parseLeniently(text)
        return (WorkoutLibrary(userEntries: read.entries),
                read.problems.map { ($0.name, ConfigFileAtPath(path: url.path, error: $0.error)) })
    }

    /// Parses workouts from text, naming `path` in errors.
    public static func entries(in text: String, path: String) throws -> [WorkoutLibrary.Entry] {
        do { return try WorkoutLibrary.parse(text) } catch {
            throw ConfigFileAtPath(path: path, error: error)
        }
    }

    /// Writes the library atomically (a crash leaves the old file or the new one, never half of one).
    /// The folder is created owner-only and the file is 0600 (see `PrivateFolder`).
    public func save(_ library: WorkoutLibrary) throws {
        try ConfigDirectory.prepare(url.deletingLastPathComponent())
        try OutputFile.write(Array(library.serialised().utf8), to: url.path, newFileMode: PrivateFolder.fileMode)
    }
}

/// A workouts or settings file's mistake, with the file it is in.
public struct ConfigFileAtPath: Error, CustomStringConvertible {
    public var path: String
    public var error: ConfigFileError
    public var description: String { "\(UserText.path(path)): \(error.description)" }
}
