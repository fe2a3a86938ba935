import Testing
@testable import RunWalkCore

@Suite("WorkoutSpecParser nesting limit")
struct SpecNestingTests {
    @Test("32 levels parse; the 33rd parenthesis is an error at its column")
    func limit() throws {
        let ok = String(repeating: "1x(", count: 32) + "1m run" + String(repeating: ")", count: 32)
        #expect(try Workout(parsing: ok).phases.count == 1)
        let deep = String(repeating: "1x(", count: 33) + "1m run" + String(repeating: ")", count: 33)
        #expect(throws: WorkoutSpecError(.nestedTooDeeply(limit: 32), column: 99)) { try Workout(parsing: deep) }
    }

    @Test("12,000 levels fail cleanly instead of overflowing the stack")
    func veryDeep() {
        let deep = String(repeating: "2x(", count: 12_000) + "1m run" + String(repeating: ")", count: 12_000)
        #expect(throws: WorkoutSpecError.self) { try Workout(parsing: deep) }
    }

    @Test("an escape sequence in a spec is shown escaped, the caret under the right character")
    func escapedCaret() {
        let spec = "5m run, \u{1B}[2J"
        do {
            _ = try Workout(parsing: spec)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "unexpected character \"\\e\" at column 9")
            #expect(error.caretLines(spec: spec) == "  5m run, \\e[2J\n          ^")
        }
    }

    @Test("a bad line in a workouts file leaves the others readable")
    func lenientLibrary() {
        let read = WorkoutLibrary.parseLeniently("a = 5m run\nb = 5x(\nnonsense\nc = 1m walk\n")
        #expect(read.entries.map(\.name) == ["a", "c"])
        #expect(read.problems.map(\.name) == ["b", nil])
        #expect(read.problems.map(\.error.line) == [2, 3])
    }
}
