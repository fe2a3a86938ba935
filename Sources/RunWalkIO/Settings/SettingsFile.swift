import FoundationEssentials
import RunWalkCore

/// The runner's settings on disk (`settings.conf` in the config folder).
public struct SettingsFile {
    public let url: URL

    public init(directory: URL = ConfigDirectory.url()) {
        url = directory.appendingPathComponent("settings.conf")
    }

    /// Reads the settings; a missing file means none are set. Errors name the file, line and column.
    public func load() throws -> UserSettings {
        guard let text = try ConfigDirectory.text(of: url) else { return UserSettings() }
        do { return try UserSettings(parsing: text) } catch {
            throw ConfigFileAtPath(path: url.path, error: error)
        }
    }
}
