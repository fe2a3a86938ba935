import RunWalkAppModel
import RunWalkCore
import Testing

@Suite struct SpecPreviewTests {
    @Test func aGoodSpecGivesTheStripAndTotals() throws {
        let preview = SpecPreview("5m warmup, 2x(90s run, 60s walk), 400m cooldown")
        #expect(preview.problem == nil)
        #expect(preview.segments.map(\.kind) == [.warmup, .run, .walk, .run, .walk, .cooldown])
        #expect(preview.summary == "6 phases · 10:00 · 400 m by distance")
        let shares = preview.segments.map(\.share)
        #expect(abs(shares.reduce(0, +) - 1) < 1e-9)
        // 400 m at the assumed 6:00 /km is 2:24 of the 12:24 strip.
        let last = try #require(shares.last)
        #expect(abs(last - 144.0 / 744.0) < 1e-9)
        #expect(preview.segments[1].label == "Run 1:30")
    }

    @Test func aBadSpecNamesAndLocatesTheWrongPart() throws {
        let preview = SpecPreview("5m warmup, 90s jgo")
        #expect(preview.workout == nil)
        let problem = try #require(preview.problem)
        #expect(problem.part == "jgo")
        #expect(problem.offset == 15)
        #expect(problem.length == 3)
        #expect(problem.message.contains("unknown phase \"jgo\""))
        #expect(problem.message.contains("column 16"))
        #expect(preview.segments.isEmpty)
    }

    @Test func aNameFromTheLibraryIsPreviewedAsItsSpec() {
        let preview = SpecPreview("galloway-3-1")
        #expect(preview.workout?.phases.count == 14)
        #expect(preview.summary == "14 phases · 34:00")
    }

    @Test func anEmptySpecIsAProblem() {
        #expect(SpecPreview("").problem != nil)
    }
}

@Suite struct WorkoutBuilderTests {
    @Test(arguments: [
        (WorkoutBuilder(), "5m warmup, 8x(90s run, 1m walk), 5m cooldown"),
        (WorkoutBuilder(warmupMinutes: 0, runSeconds: 150, walkSeconds: 0, repeats: 1, cooldownMinutes: 0), "2m30s run"),
        (WorkoutBuilder(warmupMinutes: 10, runSeconds: 30, walkSeconds: 30, repeats: 10, cooldownMinutes: 3), "10m warmup, 10x(30s run, 30s walk), 3m cooldown"),
    ])
    func writesASpecTheParserReadsBack(builder: WorkoutBuilder, spec: String) throws {
        #expect(builder.spec == spec)
        let workout = try Workout(parsing: builder.spec)
        let runs = workout.phases.filter { $0.kind == .run }
        #expect(runs.count == max(1, builder.repeats))
        #expect(runs.allSatisfy { $0.target == .duration(.seconds(builder.runSeconds)) })
    }
}
