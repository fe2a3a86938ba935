import Testing
@testable import RunWalkCore

@Suite("WorkoutSpecParser")
struct WorkoutSpecParserTests {
    @Test("the DESIGN example expands to 18 phases with exact durations")
    func designExample() throws {
        let workout = try Workout(parsing: "5m warmup, 8x(90s run, 60s walk), 5m cooldown")
        #expect(workout.phases.count == 18)
        #expect(workout.phases.first == PlannedPhase(.warmup, .duration(.seconds(300))))
        #expect(workout.phases[1] == PlannedPhase(.run, .duration(.seconds(90))))
        #expect(workout.phases[2] == PlannedPhase(.walk, .duration(.seconds(60))))
        #expect(workout.phases.last == PlannedPhase(.cooldown, .duration(.seconds(300))))
        #expect(workout.plannedDuration == .seconds(1800))
    }

    @Test("distance phases")
    func distances() throws {
        let workout = try Workout(parsing: "10x(400m run, 200m walk)")
        #expect(workout.phases.count == 20)
        #expect(workout.phases[0] == PlannedPhase(.run, .distance(metres: 400)))
        #expect(workout.phases[1] == PlannedPhase(.walk, .distance(metres: 200)))
        #expect(workout.plannedDuration == nil)
    }

    @Test("the suffix form repeats the whole group")
    func suffixForm() throws {
        let workout = try Workout(parsing: "run 2:00 walk 1:00 x10")
        #expect(workout.phases.count == 20)
        #expect(workout.phases[0] == PlannedPhase(.run, .duration(.seconds(120))))
        #expect(workout.phases[19] == PlannedPhase(.walk, .duration(.seconds(60))))
    }

    @Test("quantities", arguments: [
        ("90s run", PhaseTarget.duration(.seconds(90))),
        ("2m run", .duration(.seconds(120))),
        ("2m30s run", .duration(.seconds(150))),
        ("1:30 run", .duration(.seconds(90))),
        ("1:02:03 run", .duration(.seconds(3723))),
        ("1h walk", .duration(.seconds(3600))),
        ("1h30m walk", .duration(.seconds(5400))),
        ("1.5m run", .duration(.seconds(90))),
        ("2min run", .duration(.seconds(120))),
        ("400m run", .distance(metres: 400)),
        ("1.5km run", .distance(metres: 1500)),
        ("1mi run", .distance(metres: 1609.344)),
        ("800metres run", .distance(metres: 800)),
        ("10m warmup", .duration(.seconds(600))),
    ])
    func quantities(spec: String, target: PhaseTarget) throws {
        let workout = try Workout(parsing: spec)
        #expect(workout.phases.map(\.target) == [target], "\(spec)")
    }

    @Test("aliases and case")
    func aliases() throws {
        let workout = try Workout(parsing: "5m Warm-up, 1m RUN, 5m cool-down, 2m warmup, 2m cooldown")
        #expect(workout.phases.map(\.kind) == [.warmup, .run, .cooldown, .warmup, .cooldown])
    }

    @Test("nested repeats flatten")
    func nested() throws {
        let workout = try Workout(parsing: "2x(3x(30s run, 30s walk), 2m walk)")
        #expect(workout.phases.count == 14)
        #expect(workout.phases[6] == PlannedPhase(.walk, .duration(.seconds(120))))
    }

    @Test("bad specs name the cause and the column", arguments: [
        ("8x(90s run", "the \"(\" at column 3 is never closed: expected \")\" at column 11", 11),
        ("5m warmup, 8x(90s jog, 60s walk)", "unknown phase \"jog\" at column 19 (phases are warmup, run, walk, cooldown)", 19),
        ("5m wlak", "unknown phase \"wlak\" at column 4 (did you mean \"walk\"?)", 4),
        ("", "empty workout spec at column 1", 1),
        ("90s", "\"90s\" is not followed by a phase (warmup, run, walk, cooldown) at column 1", 1),
        ("run", "phase \"run\" has no duration or distance at column 1", 1),
        ("90q run", "bad duration or distance \"90q\" (unknown unit \"q\") at column 1", 1),
        ("1:75 run", "bad duration or distance \"1:75\" (minutes and seconds must be below 60) at column 1", 1),
        ("0s run", "bad duration or distance \"0s\" (must be more than zero) at column 1", 1),
        ("90s run,", "expected a phase after \",\" at column 8", 8),
        ("90s run)", "\")\" without a matching \"(\" at column 8", 8),
        ("8x 90s run", "expected \"(\" after repeat count \"8x\" at column 4", 4),
        ("0x(90s run)", "bad repeat count \"0x\" at column 1", 1),
        ("x5", "\"x5\" repeats nothing at column 1", 1),
        ("90s run & 60s walk", "unexpected character \"&\" at column 9", 9),
        ("30s run 20s", "\"20s\" is not followed by a phase (warmup, run, walk, cooldown) at column 9", 9),
        ("9999x(9999x(1s run))", "the workout expands to more than 10000 phases at column 1", 1),
        ("2s30m run", "bad duration or distance \"2s30m\" (units must go from hours to seconds) at column 1", 1),
    ])
    func errors(spec: String, message: String, column: Int) {
        #expect(throws: WorkoutSpecError.self) { try Workout(parsing: spec) }
        do {
            _ = try Workout(parsing: spec)
        } catch {
            #expect(error.description == message, "\(spec)")
            #expect(error.column == column, "\(spec)")
        }
    }

    @Test("the caret sits under the offending token")
    func caret() {
        do {
            _ = try Workout(parsing: "5m warmup, 8x(90s jog)")
            Issue.record("expected an error")
        } catch {
            #expect(error.caretLines(spec: "5m warmup, 8x(90s jog)") == "  5m warmup, 8x(90s jog)\n                    ^^^")
        }
    }
}
