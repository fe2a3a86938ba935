import Testing
@testable import RunWalkCore

@Suite("WorkoutsDocument")
struct WorkoutsDocumentTests {
    static let file = """
        # my workouts
        tempo = 10m warmup, 5x(3m run, 2m walk), 10m cooldown

        # for Sundays
        long = 5m warmup, 4x(10m run, 1m walk), 5m cooldown

        """

    @Test("add appends, update and rename change their own line, comments and blanks are kept")
    func editsKeepTheRest() throws {
        var document = try WorkoutsDocument(text: Self.file)
        try document.update(name: "tempo", spec: "10m warmup, 6x(3m run, 2m walk), 10m cooldown")
        try document.rename("long", to: "Sunday")
        try document.add(name: "short", spec: "run 2:00 walk 1:00 x5")
        #expect(document.text == """
            # my workouts
            tempo = 10m warmup, 6x(3m run, 2m walk), 10m cooldown

            # for Sundays
            sunday = 5m warmup, 4x(10m run, 1m walk), 5m cooldown
            short = run 2:00 walk 1:00 x5

            """)
        #expect(document.library.userEntries.map(\.name) == ["tempo", "sunday", "short"])
        #expect(try WorkoutLibrary.parse(document.text) == document.library.userEntries)
    }

    @Test("remove takes the workout's line only")
    func removes() throws {
        var document = try WorkoutsDocument(text: Self.file)
        try document.remove(name: "TEMPO")
        #expect(document.text == "# my workouts\n\n# for Sundays\nlong = 5m warmup, 4x(10m run, 1m walk), 5m cooldown\n")
        #expect(throws: ConfigFileError.self) { try document.remove(name: "tempo") }
    }

    @Test("what runwalk workouts refuses is refused, and nothing changes", arguments: [
        ("galloway-3-1", "10x(1m run, 1m walk)"), ("next", "10x(1m run, 1m walk)"), ("tempo", "10x(1m run, 1m walk)"),
        ("bad name", "10x(1m run, 1m walk)"), ("fine", "10x(1m jgo)"), ("fine", ""),
    ])
    func refusesBadAdds(name: String, spec: String) throws {
        var document = try WorkoutsDocument(text: Self.file)
        #expect(throws: ConfigFileError.self) { try document.add(name: name, spec: spec) }
        #expect(document.text == Self.file)
    }

    @Test("a bad spec's error carries its column in the spec")
    func specColumn() throws {
        var document = try WorkoutsDocument(text: Self.file)
        let error = try #require(throws: ConfigFileError.self) { try document.update(name: "tempo", spec: "10m warmup, 5x(3m jgo)") }
        // Column 27 of the file's line: where "jgo" starts after "tempo = ".
        #expect(error.line == 2 && error.column == 27, "\(error)")
        #expect(document.text == Self.file)
    }

    @Test("a file with a bad line is refused with its line, so the app changes nothing")
    func refusesBrokenFile() throws {
        let error = try #require(throws: ConfigFileError.self) { try WorkoutsDocument(text: "# mine\ntempo = 5x(3m rnu)\n") }
        #expect(error.line == 2)
    }

    @Test("rename to a taken name, or to the same name in other case")
    func renameChecks() throws {
        var document = try WorkoutsDocument(text: Self.file)
        #expect(throws: ConfigFileError.self) { try document.rename("tempo", to: "long") }
        try document.rename("tempo", to: "TEMPO")
        #expect(document.text == Self.file)
    }
}
