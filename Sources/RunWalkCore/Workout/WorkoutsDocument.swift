/// `workouts.txt` as the app edits it: the runner's lines kept as written (comments, order,
/// blank lines), one line changed per edit, and every edit checked as `runwalk workouts` checks it
/// (the name's letters, a name taken by a built-in or by `next`, the spec), with the whole file
/// read again by `WorkoutLibrary.parse` before the caller writes it.
public struct WorkoutsDocument: Sendable, Equatable {
    /// The text, line for line.
    public private(set) var document: ConfigDocument
    /// The saved workouts the text holds.
    public private(set) var library: WorkoutLibrary

    /// Reads a file's text; a bad line is thrown with its line and column (the app then shows it
    /// and changes nothing until the runner fixes it).
    public init(text: String) throws(ConfigFileError) {
        library = WorkoutLibrary(userEntries: try WorkoutLibrary.parse(text))
        document = ConfigDocument(text: text, caseInsensitiveKeys: true)
    }

    /// The text to write.
    public var text: String { document.text }

    /// Why a new name cannot be used (column 1-based in the name), nil when it can.
    public func problem(withNewName name: String, replacing old: String? = nil) -> ConfigFileError? {
        let key = name.lowercased()
        if let column = WorkoutLibrary.nameProblem(key) {
            return ConfigFileError(line: 1, column: column, message: "use up to \(WorkoutLibrary.maximumNameLength) letters, digits, - and _")
        }
        if key == "next" { return ConfigFileError(line: 1, column: 1, message: "\"next\" means the next day of your plan: choose another name") }
        if key == old?.lowercased() { return nil }
        guard let existing = library.entry(named: key) else { return nil }
        return ConfigFileError(line: 1, column: 1, message: existing.builtIn
            ? "\(key) is a built-in workout: choose another name" : "a saved workout named \(key) exists")
    }

    /// Adds a workout (a new line at the end).
    public mutating func add(name: String, spec: String) throws(ConfigFileError) {
        if let problem = problem(withNewName: name) { throw problem }
        try edit { $0.set(name.lowercased(), to: Self.oneLine(spec), commentsAfterValue: false) }
    }

    /// Changes a saved workout's spec on its own line.
    public mutating func update(name: String, spec: String) throws(ConfigFileError) {
        guard document.lineIndex(of: name) != nil else { throw ConfigFileError(line: 1, column: 1, message: "no saved workout named \(name)") }
        try edit { $0.set(name, to: Self.oneLine(spec), commentsAfterValue: false) }
    }

    /// Renames a saved workout on its own line.
    public mutating func rename(_ old: String, to new: String) throws(ConfigFileError) {
        guard document.lineIndex(of: old) != nil else { throw ConfigFileError(line: 1, column: 1, message: "no saved workout named \(old)") }
        if let problem = problem(withNewName: new, replacing: old) { throw problem }
        try edit { $0.rename(old, to: new.lowercased()) }
    }

    /// Removes a saved workout's line.
    public mutating func remove(name: String) throws(ConfigFileError) {
        guard document.lineIndex(of: name) != nil else { throw ConfigFileError(line: 1, column: 1, message: "no saved workout named \(name)") }
        try edit { $0.remove(name) }
    }

    private static func oneLine(_ spec: String) -> String {
        spec.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingBlanks
    }

    /// Applies `change` to a copy and keeps it only when the whole file still reads.
    private mutating func edit(_ change: (inout ConfigDocument) -> Void) throws(ConfigFileError) {
        var edited = document
        change(&edited)
        let entries = try WorkoutLibrary.parse(edited.text)
        document = edited
        library = WorkoutLibrary(userEntries: entries)
    }
}
