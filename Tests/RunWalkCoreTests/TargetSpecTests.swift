import Testing
@testable import RunWalkCore

@Suite("Workout spec targets")
struct TargetSpecTests {
    static func phases(_ spec: String) throws -> [PlannedPhase] { try Workout(parsing: spec).phases }

    @Test("a pace band on each interval of a repeat")
    func paceBandInRepeat() throws {
        let phases = try Self.phases("8x(90s run @ 6:00-6:30/km, 60s walk)")
        #expect(phases.count == 16)
        #expect(phases[0] == PlannedPhase(.run, .duration(.seconds(90)),
                                          band: .pace(fastestSecondsPerKm: 360, slowestSecondsPerKm: 390, unit: .km)))
        #expect(phases[1] == PlannedPhase(.walk, .duration(.seconds(60))))
        #expect(phases[14].band == phases[0].band)
    }

    @Test("a single pace is a band of ±10 s per written unit; miles are kept as written")
    func singlePace() throws {
        #expect(try Self.phases("run 1km @ 5:30/km")[0].band == .pace(fastestSecondsPerKm: 320, slowestSecondsPerKm: 340, unit: .km))
        let mile = try #require(try Self.phases("20m run @ 10:00/mi")[0].band)
        guard case .pace(let fastest, let slowest, .mi) = mile else { Issue.record("not a mile pace: \(mile)"); return }
        #expect(abs(fastest - 590 / 1.609344) < 1e-9)
        #expect(abs(slowest - 610 / 1.609344) < 1e-9)
        #expect(mile.specText == "9:50-10:10/mi")
        // Reversed ends are put in order.
        #expect(try Self.phases("90s run @ 6:30-6:00/km")[0].band == .pace(fastestSecondsPerKm: 360, slowestSecondsPerKm: 390, unit: .km))
    }

    @Test("heart-rate bands")
    func heartRateBands() throws {
        #expect(try Self.phases("run 20m @ hr 140-150")[0].band == .heartRate(low: 140, high: 150))
        #expect(try Self.phases("20m run @hr145")[0].band == .heartRate(low: 140, high: 150))
    }

    @Test("until hr: the direction follows the phase kind, or above/below")
    func untilHeartRate() throws {
        let phases = try Self.phases("run until hr 150, walk until hr 120")
        #expect(phases.map(\.until?.direction) == [.rising, .falling])
        #expect(phases.map(\.until?.thresholdBpm) == [150, 120])
        #expect(phases[0].target == .duration(HeartRateCondition.unboundedLength))
        let bounded = try Self.phases("walk until hr below 110 max 2m, warmup until hr above 100 min 30s max 10m")
        #expect(bounded[0].until == HeartRateCondition(thresholdBpm: 110, direction: .falling, explicit: true, maximum: .seconds(120)))
        #expect(bounded[0].target == .duration(.seconds(120)))
        #expect(bounded[1].until == HeartRateCondition(thresholdBpm: 100, direction: .rising, explicit: true,
                                                       minimum: .seconds(30), maximum: .seconds(600)))
        #expect(try Self.phases("cooldown until hr above 90")[0].until?.direction == .rising)
    }

    @Test("targets go back to the same spec text, and it parses to the same phases", arguments: [
        "8x(90s run @ 6:00-6:30/km, 60s walk)",
        "run 1km @ 5:30/km, 2x(run 20m @ hr 140-150, 5m walk)",
        "run until hr 150 @ 6:00-6:30/km, walk until hr below 110 min 30s max 2m",
        "10m warmup @ 10:00/mi, run 2:00 walk 1:00 x3",
    ])
    func roundTrip(spec: String) throws {
        let phases = try Self.phases(spec)
        // Each phase written back with its target text reads as the same phase.
        let rewritten = phases.map { phase -> String in
            let length = phase.until == nil
                ? (phase.target.durationSeconds.map { HeartRateCondition.durationText(.seconds(double: $0)) }
                    ?? "\(Int(phase.target.distanceMetres ?? 0))metres")
                : ""
            return ([phase.kind.rawValue, length, phase.targetSpecText].filter { !$0.isEmpty }).joined(separator: " ")
        }.joined(separator: ", ")
        #expect(try Self.phases(rewritten) == phases, "\(rewritten)")
    }

    @Test("errors name the part and its column", arguments: [
        ("90s run @ 6:00-6:30/kn", "bad target \"6:00-6:30/kn\" (unknown pace unit \"/kn\": use /km or /mi) at column 11", 11, 12),
        ("90s run @ 6:00-6:30", "bad target \"6:00-6:30\" (a pace needs its unit: /km or /mi) at column 11", 11, 9),
        ("90s run @ 6:0/km", "bad target \"6:0/km\" (a pace is minutes:seconds, such as 6:00) at column 11", 11, 6),
        ("90s run @ 0:30/km", "bad target \"0:30/km\" (paces must lie between 2:00 and 30:00 per km) at column 11", 11, 7),
        ("run 20m @ hr 140-350", "bad target \"140-350\" (a heart rate is a whole number of beats per minute from 30 to 250) at column 14", 14, 7),
        ("run 20m @, 1m walk", "bad target \",\" (expected a pace such as 6:00-6:30/km or 10:00/mi) at column 10", 10, 1),
        ("run until pace 150", "bad heart-rate condition at \"pace\" (expected \"hr\" after \"until\") at column 11", 11, 4),
        ("run until hr fast", "bad heart-rate condition at \"fast\" (expected a heart rate in beats per minute after \"hr\") at column 14", 14, 4),
        ("walk until hr 110 max 400m", "bad heart-rate condition at \"400m\" (\"max\" takes a duration, not a distance) at column 23", 23, 4),
        ("walk until hr 110 min 3m max 2m", "bad heart-rate condition at \"2m\" (min is longer than max) at column 30", 30, 2),
        ("90s run max 2m", "\"max\" bounds only an \"until hr\" phase at column 9", 9, 3),
        ("@ 6:00/km", "\"@\" is not after a phase (\"90s run @ 6:00-6:30/km\") at column 1", 1, 1),
        ("90s run @ 6:00/km @ 6:10/km", "bad target \"@\" (a phase takes one target) at column 19", 19, 1),
    ])
    func errors(spec: String, message: String, column: Int, length: Int) {
        do {
            _ = try Workout(parsing: spec)
            Issue.record("expected an error for \(spec)")
        } catch {
            #expect(error.description == message)
            #expect(error.column == column)
            #expect(error.length == length)
        }
    }

    @Test("the caret sits under the bad band")
    func caret() {
        let spec = "8x(90s run @ 6:00-6:30/kn, 60s walk)"
        do {
            _ = try Workout(parsing: spec)
            Issue.record("expected an error")
        } catch {
            #expect(error.caretLines(spec: spec) == "  \(spec)\n               ^^^^^^^^^^^^")
        }
    }

    @Test("without a heart rate, a workout starts only when every until-hr phase has a max")
    func heartRateSource() throws {
        let open = try Workout(parsing: "run until hr 150, walk until hr 120 max 2m")
        let problem = try #require(open.heartRateProblem(hasHeartRateSource: false))
        #expect(problem.contains("phase 1 (\"run until hr 150\")"))
        #expect(problem.contains("\"max\""))
        #expect(open.heartRateProblem(hasHeartRateSource: true) == nil)
        let bounded = try Workout(parsing: "run until hr 150 max 5m, walk until hr 120 max 2m")
        #expect(bounded.heartRateProblem(hasHeartRateSource: false) == nil)
        #expect(try Workout(parsing: "90s run @ hr 140-150").heartRateProblem(hasHeartRateSource: false) == nil)
    }
}

@Suite("Targets in plans")
struct TargetPlanTests {
    @Test("a plan day's workout keeps its targets through JSON, and a bad band names plan, day and column")
    func planRoundTrip() throws {
        let spec = "5m warmup, 6x(90s run @ 6:00-6:30/km, walk until hr 110 max 2m), 5m cooldown"
        let text = "{\"name\": \"t\", \"title\": \"T\", \"days_per_week\": 1, \"weeks\": [{\"days\": [{\"workout\": \"\(spec)\"}]}]}"
        let plan = try TrainingPlan(json: text)
        let again = try TrainingPlan(json: plan.json)
        #expect(again.weeks[0].days[0].workout == spec)
        #expect(try Workout(parsing: again.weeks[0].days[0].workout).phases[1].band != nil)
        let bad = text.replacing("6:30/km", with: "6:30/kn")
        do {
            _ = try TrainingPlan(json: bad)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("bad target \"6:00-6:30/kn\""), "\(error)")
        }
    }
}
