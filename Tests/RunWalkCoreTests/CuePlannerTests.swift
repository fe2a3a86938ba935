import Testing
@testable import RunWalkCore

@Suite("CuePlanner")
struct CuePlannerTests {
    /// Every utterance: 0.3 s plus 0.1 s a word, its first word audible after 40 ms.
    static let timing = SpeechTiming(name: "test") { text, _ in
        UtteranceTiming(durationSeconds: 0.3 + 0.1 * Double(text.split(separator: " ").count), keyWordOffsetSeconds: 0.04)
    }

    /// Runs the engine over `spec` second by second (no distance) and plans cues for every event.
    func plan(_ spec: String, language: Language = .en, enabled: Set<CueKind> = CueKind.defaultEnabled,
              until seconds: Int) throws -> [Cue] {
        let workout = try Workout(parsing: spec)
        var engine = WorkoutEngine(workout: workout)
        var planner = CuePlanner(workout: workout, language: language, enabled: enabled, timing: Self.timing)
        var cues: [Cue] = []
        func upcoming() -> CuePlanner.Boundary? {
            engine.phaseEnd.map { CuePlanner.Boundary(seconds: $0.seconds, nextIndex: engine.phaseIndex.map { $0 + 1 }) }
        }
        for event in engine.start(at: .zero) { cues += planner.cues(for: event, upcoming: upcoming()) }
        for t in 1...seconds {
            for event in engine.advance(to: .seconds(t), distanceMetres: 0) {
                cues += planner.cues(for: event, upcoming: upcoming())
                if case .workoutCompleted(let at) = event {
                    cues += planner.completion(atSeconds: at.seconds, distanceMetres: 0, durationSeconds: at.seconds)
                }
            }
        }
        return cues
    }

    @Test("countdown numbers fall on the seconds and the transition's key word on the boundary")
    func onTheBeat() throws {
        let cues = try plan("90s run, 60s walk", until: 200)
        let beats = cues.filter { $0.kind == .countdown || $0.kind == .transition }
        #expect(beats.map(\.text) == ["Run for 90 seconds.", "3", "2", "1", "Walk for 1 minute.", "3", "2", "1"])
        #expect(beats.map(\.anchorSeconds) == [0, 87, 88, 89, 90, 147, 148, 149])
        for cue in beats {
            #expect(abs(cue.atSeconds - (cue.anchorSeconds - 0.04)) < 1e-9, "\(cue.text) starts early by its key word's onset")
        }
        #expect(cues.filter { $0.text.hasPrefix("Walk") }.count == 1, "planned ahead, not repeated when the phase starts")
    }

    @Test("no two cues overlap")
    func noOverlap() throws {
        let cues = try plan("5m warmup, 8x(90s run, 60s walk), 5m cooldown", until: 1800)
        for (a, b) in zip(cues, cues.dropFirst()) {
            #expect(a.endSeconds <= b.atSeconds, "\(a.text) @\(a.atSeconds) runs into \(b.text) @\(b.atSeconds)")
        }
        #expect(cues.last?.text == "Workout complete. 0 metres in 30 minutes.")
    }

    @Test("halfway points of long phases (2 minutes and more) say what is left")
    func halfway() throws {
        let cues = try plan("2m run, 90s walk", until: 200)
        #expect(cues.filter { $0.kind == .halfway }.map(\.text) == ["Halfway. 1 minute to go."])
        #expect(cues.first { $0.kind == .halfway }?.atSeconds == 60)
    }

    @Test("each cue kind can be switched off", arguments: [CueKind.countdown, .transition, .halfway, .complete])
    func switchedOff(kind: CueKind) throws {
        let cues = try plan("2m run, 2m walk", enabled: CueKind.defaultEnabled.subtracting([kind]), until: 240)
        #expect(!cues.isEmpty)
        #expect(!cues.contains { $0.kind == kind })
    }

    @Test("German phrasing with the same timing")
    func german() throws {
        let cues = try plan("90s run, 2m walk", language: .de, until: 210)
        #expect(cues.map(\.text) == ["Laufen für 90 Sekunden.", "3", "2", "1",
                                    "Gehen für 2 Minuten.", "Halbzeit. Noch eine Minute.", "3", "2", "1",
                                    "Training beendet. 0 Meter in 3 Minuten 30 Sekunden."])
    }

    @Test("a run interval's summary is opt-in and follows the transition")
    func intervalSummary() throws {
        let workout = try Workout(parsing: "60s run, 60s walk")
        var planner = CuePlanner(workout: workout, enabled: CueKind.defaultEnabled.union([.summary]), timing: Self.timing)
        let record = PhaseRecord(index: 0, planned: workout.phases[0], start: .zero, end: .seconds(60),
                                 activeDuration: .seconds(60), distanceMetres: 200, reason: .completed)
        _ = planner.cues(for: .countdown(secondsLeft: 1, nextIndex: 1, at: .seconds(59)), upcoming: nil)
        let cues = planner.cues(for: .phaseEnded(record), upcoming: nil)
        #expect(cues.map(\.text) == ["Run 1: 200 metres, pace 5 minutes per kilometre."])
        #expect((cues.first?.atSeconds ?? 0) > 60, "after the transition that began at the boundary")
        var quiet = CuePlanner(workout: workout, timing: Self.timing)
        #expect(quiet.cues(for: .phaseEnded(record), upcoming: nil).isEmpty)
    }

    @Test("a pause inside the last second makes the real phase start announce the transition")
    func pauseBeforeBoundary() throws {
        let workout = try Workout(parsing: "60s run, 60s walk")
        var planner = CuePlanner(workout: workout, timing: Self.timing)
        let early = planner.cues(for: .countdown(secondsLeft: 1, nextIndex: 1, at: .seconds(59)), upcoming: nil)
        #expect(early.map(\.text) == ["1", "Walk for 1 minute."])
        _ = planner.cues(for: .paused(at: .seconds(59.5)), upcoming: nil)
        let late = planner.cues(for: .phaseStarted(index: 1, at: .seconds(80)), upcoming: nil)
        #expect(late.map(\.text) == ["Walk for 1 minute."])
    }
}

@Suite("CuePlanner introduction")
struct CuePlannerIntroductionTests {
    @Test("a plan day's introduction is the first cue; the first transition follows it, the rest keep their beat")
    func introductionFirst() throws {
        let workout = try Workout(parsing: "1m warmup, 90s run")
        var engine = WorkoutEngine(workout: workout)
        var planner = CuePlanner(workout: workout, timing: CuePlannerTests.timing, introduction: "Week 3, day 2 of couch to 5K.")
        var cues: [Cue] = []
        for event in engine.start(at: .zero) { cues += planner.cues(for: event, upcoming: nil) }
        for t in 1...200 { for event in engine.advance(to: .seconds(t), distanceMetres: 0) { cues += planner.cues(for: event, upcoming: nil) } }
        #expect(cues.first?.text == "Week 3, day 2 of couch to 5K.")
        #expect(cues.first?.atSeconds == 0)
        let warmup = try #require(cues.first { $0.text.hasPrefix("Warm up") })
        let intro = try #require(cues.first)
        #expect(warmup.atSeconds >= intro.endSeconds, "not over the introduction")
        #expect(cues.filter { $0.text.hasPrefix("Week 3") }.count == 1)
        let run = try #require(cues.first { $0.text.hasPrefix("Run for") })
        #expect(abs(run.anchorSeconds - 60) < 1e-9)
        var quiet = CuePlanner(workout: workout, enabled: [.countdown], timing: CuePlannerTests.timing, introduction: "Week 1, day 1 of x.")
        #expect(quiet.cues(for: .phaseStarted(index: 0, at: .zero), upcoming: nil).isEmpty, "transitions off: no introduction either")
    }
}
