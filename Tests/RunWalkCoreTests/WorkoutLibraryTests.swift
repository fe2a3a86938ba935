import Testing
@testable import RunWalkCore

@Suite("WorkoutLibrary")
struct WorkoutLibraryTests {
    @Test("every built-in workout parses")
    func builtInsParse() throws {
        for entry in WorkoutLibrary.builtIns {
            #expect(throws: Never.self, "\(entry.name)") { try Workout(parsing: entry.spec) }
        }
        #expect(WorkoutLibrary().entry(named: "Galloway-3-1")?.spec == "5m warmup, 6x(3m run, 1m walk), 5m cooldown")
    }

    @Test("the file format round-trips, with comments and blank lines ignored")
    func roundTrip() throws {
        let text = "# mine\n\ntempo = 10m warmup, 5x(3m run, 2m walk), 10m cooldown\r\n  hills=6x(1m run, 2m walk)\n"
        let entries = try WorkoutLibrary.parse(text)
        #expect(entries.map(\.name) == ["tempo", "hills"])
        #expect(entries[1].spec == "6x(1m run, 2m walk)")
        let library = WorkoutLibrary(userEntries: entries)
        #expect(try WorkoutLibrary.parse(library.serialised()) == entries)
    }

    @Test("file errors name the line and the column", arguments: [
        ("a = 5m run\nb = 5m rnu\n", 2, 8, "unknown phase \"rnu\" (did you mean \"run\"?)"),
        ("just words\n", 1, 1, "expected \"name = spec\""),
        ("my workout = 5m run\n", 1, 3, "bad workout name \"my workout\": use up to 64 letters, digits, - and _"),
        ("a = 5m run\na = 6m run\n", 2, 1, "workout \"a\" is defined twice"),
    ])
    func fileErrors(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try WorkoutLibrary.parse(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error == WorkoutLibrary.FileError(line: line, column: column, message: message))
        }
    }

    @Test("a saved workout hides a built-in of the same name; removing it shows the built-in again")
    func shadowing() throws {
        var library = WorkoutLibrary()
        _ = try library.add(name: "c25k-w1", spec: "20m walk")
        #expect(library.entry(named: "c25k-w1")?.spec == "20m walk")
        #expect(library.entries.filter { $0.name == "c25k-w1" }.count == 1)
        let removed = library.remove(name: "C25K-W1")
        #expect(removed)
        #expect(library.entry(named: "c25k-w1")?.builtIn == true)
        let removedAgain = library.remove(name: "c25k-w1")
        #expect(!removedAgain)
    }
}
