/// `settings.conf` as the app edits it: the runner's text kept line for line (`ConfigDocument`),
/// and every change checked by the parser the command line reads it with, so the app never
/// writes a file `runwalk` would refuse.
public struct SettingsDocument: Sendable, Equatable {
    /// The text, line for line.
    public private(set) var document: ConfigDocument
    /// The settings the text holds (what `runwalk` reads).
    public private(set) var settings: UserSettings

    /// Reads a file's text; a text the command line would refuse is thrown with its line and column
    /// (the app then shows it and changes nothing).
    public init(text: String) throws(ConfigFileError) {
        settings = try UserSettings(parsing: text)
        document = ConfigDocument(text: text)
    }

    /// The text to write.
    public var text: String { document.text }

    /// The value the file gives `key`, nil when no line sets it.
    public func value(of key: String) -> String? { document.value(of: key) }

    /// Sets `key` to `value` in place (or appends it); a value the command line would refuse is
    /// thrown, with the message it would print, and the document is left as it was.
    public mutating func set(_ key: String, to value: String) throws(ConfigFileError) {
        let trimmed = value.trimmingBlanks
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0.isNewline || $0 == "#" }) else {
            throw ConfigFileError(line: 1, column: 1, message: "\(UserText.printable(key)) = \(UserText.printable(value)): "
                                  + (trimmed.isEmpty ? "a value is needed" : "a value cannot hold # or a line break"))
        }
        var edited = document
        edited.set(key, to: trimmed)
        let line = (edited.lineIndex(of: key) ?? 0) + 1
        do { settings = try UserSettings(parsing: edited.text) } catch {
            // Said as about the value, without the line: the runner typed a value, not a line.
            throw ConfigFileError(line: line, column: error.column, message: error.message)
        }
        document = edited
    }
}
