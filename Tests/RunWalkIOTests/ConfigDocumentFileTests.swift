import Foundation
import Testing
import RunWalkCore
import RunWalkIO

@Suite("ConfigDocumentFile: settings.conf and workouts.txt edited in place")
struct ConfigDocumentFileTests {
    func folder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test("an edit is made on the file as it is now: a hand edit made since the page was shown is kept")
    func editsTheFileAsItIsNow() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = SettingsFile(directory: root)
        try "# mine\nunits = metric # km\n".write(to: file.url, atomically: true, encoding: .utf8)
        let shown = try file.loadDocument()
        try "# mine\nunits = metric # km\nlanguage = de\n".write(to: file.url, atomically: true, encoding: .utf8)
        try file.edit { try $0.set("units", to: "imperial") }
        #expect(try String(contentsOf: file.url, encoding: .utf8) == "# mine\nunits = imperial # km\nlanguage = de\n")
        #expect(shown.settings.language == nil)
        #expect(try file.load().units == .imperial, "the command line's reader takes it")
    }

    @Test("a refused value or a broken file writes nothing")
    func refusalWritesNothing() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = SettingsFile(directory: root)
        let text = "units = metric\n"
        try text.write(to: file.url, atomically: true, encoding: .utf8)
        #expect(throws: ConfigFileError.self) { try file.edit { try $0.set("units", to: "furlongs") } }
        #expect(try String(contentsOf: file.url, encoding: .utf8) == text)
        let broken = "units = metric\nvolume = 11\n"
        try broken.write(to: file.url, atomically: true, encoding: .utf8)
        let error = try #require(throws: ConfigFileAtPath.self) { try file.edit { try $0.set("units", to: "imperial") } }
        #expect(error.description.hasSuffix("settings.conf: line 2, column 1: unknown setting \"volume\": expected one of "
                                            + UserSettings.keys.joined(separator: ", ")))
        #expect(try String(contentsOf: file.url, encoding: .utf8) == broken)
    }

    @Test("a new file is created owner-only (0600) in an owner-only folder, as runwalk creates it")
    func newFileIsPrivate() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = WorkoutLibraryFile(directory: root.appendingPathComponent("runwalk"))
        try file.edit { try $0.add(name: "hills", spec: "5m warmup, 4x(2m run, 2m walk), 5m cooldown") }
        #expect(mode(file.url.path) == 0o600)
        #expect(mode(root.appendingPathComponent("runwalk").path) == 0o700)
        #expect(try file.load().entry(named: "hills")?.spec == "5m warmup, 4x(2m run, 2m walk), 5m cooldown")
        // The write replaced the file by rename: no temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("runwalk").path) == ["workouts.txt"])
    }
}
