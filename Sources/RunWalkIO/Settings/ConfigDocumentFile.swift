import FoundationEssentials
import RunWalkCore

/// The settings and workouts files as documents the app edits line by line, written atomically
/// (a temporary file, fsync, rename: a crash leaves the old file or the new one), 0600 in an
/// owner-only folder as `runwalk` writes them.
extension SettingsFile {
    /// The file as the runner wrote it; a missing file is an empty one. A file `runwalk` would
    /// refuse is a `ConfigFileAtPath` (file, line, column); an unreadable one an `InputError`.
    public func loadDocument() throws -> SettingsDocument {
        let text = try ConfigDirectory.text(of: url) ?? ""
        do { return try SettingsDocument(text: text) } catch { throw ConfigFileAtPath(path: url.path, error: error) }
    }

    /// Writes the document's text (checked by `SettingsDocument` as `runwalk` reads it).
    public func save(_ document: SettingsDocument) throws {
        try ConfigDirectory.prepare(url.deletingLastPathComponent())
        try OutputFile.write(Array(document.text.utf8), to: url.path, newFileMode: PrivateFolder.fileMode)
    }

    /// Reads the file, applies `change` and writes it back: the edit is made on what the file
    /// holds now (a hand edit made meanwhile is kept), and nothing is written when it throws.
    @discardableResult
    public func edit(_ change: (inout SettingsDocument) throws -> Void) throws -> SettingsDocument {
        var document = try loadDocument()
        let before = document
        try change(&document)
        if document != before { try save(document) }
        return document
    }
}

extension WorkoutLibraryFile {
    /// The file as the runner wrote it; a missing file is one with only the line that says what
    /// the file holds (written once a workout is added). A bad line is a `ConfigFileAtPath`
    /// (file, line, column); an unreadable file an `InputError`.
    public func loadDocument() throws -> WorkoutsDocument {
        let text = try ConfigDirectory.text(of: url) ?? "# RunWalk workouts: name = spec\n"
        do { return try WorkoutsDocument(text: text) } catch { throw ConfigFileAtPath(path: url.path, error: error) }
    }

    /// Writes the document's text (every line checked as `runwalk workouts` reads it).
    public func save(_ document: WorkoutsDocument) throws {
        try ConfigDirectory.prepare(url.deletingLastPathComponent())
        try OutputFile.write(Array(document.text.utf8), to: url.path, newFileMode: PrivateFolder.fileMode)
    }

    /// Reads the file, applies `change` and writes it back (see `SettingsFile.edit`).
    @discardableResult
    public func edit(_ change: (inout WorkoutsDocument) throws -> Void) throws -> WorkoutsDocument {
        var document = try loadDocument()
        let before = document
        try change(&document)
        if document != before { try save(document) }
        return document
    }
}
