import Testing
@testable import RunWalkCore

/// The closing "Workout complete" cue ends as the workout ends, so the voice track is the workout's length.
@Suite("Closing cue")
struct ClosingCueTests {
    static let timing = CuePlannerTests.timing

    @Test("placed once, as soon as the end is within its length and the lead, ending on the end")
    func placedAhead() throws {
        let workout = try Workout(parsing: "60s run, 60s walk")
        var planner = CuePlanner(workout: workout, timing: Self.timing)
        // "Workout complete. 360 metres in 2 minutes. Average pace 5 minutes 33 per kilometre." is 14 words: 1.7 s.
        func close(now: Double) -> [Cue] {
            planner.closing(endingAt: 120, nowSeconds: now, distanceMetres: 360, durationSeconds: 120, leadSeconds: 1.5)
        }
        // Decided by the countdown's start (117 s) less the lead: 115.5 s.
        #expect(close(now: 115.4).isEmpty, "too early")
        let cues = close(now: 115.5)
        let cue = try #require(cues.first)
        #expect(cues.count == 1 && cue.kind == .complete)
        #expect(cue.text == "Workout complete. 360 metres in 2 minutes. Average pace 5 minutes 33 per kilometre.")
        #expect(abs(cue.endSeconds - 120) < 1e-9 && abs(cue.atSeconds - 118.3) < 1e-9)
        #expect(planner.closed)
        #expect(close(now: 116.5).isEmpty, "placed once")
        #expect(planner.completion(atSeconds: 120, distanceMetres: 361, durationSeconds: 120).isEmpty, "not repeated at the end")
    }

    @Test("it stands in for the last countdown; nothing but pause and resume follows it")
    func replacesLastCountdown() throws {
        let workout = try Workout(parsing: "60s run, 60s walk")
        var planner = CuePlanner(workout: workout, timing: Self.timing)
        let end = CuePlanner.Boundary(seconds: 120, nextIndex: nil)
        #expect(!planner.closing(endingAt: 120, nowSeconds: 117, distanceMetres: 360, durationSeconds: 120, leadSeconds: 1.5).isEmpty)
        #expect(planner.cues(for: .countdown(secondsLeft: 2, nextIndex: nil, at: .seconds(118)), upcoming: end).isEmpty)
        let split = Split(index: 1, distanceMetres: 1000, elapsedSeconds: 118.5, splitSeconds: 118.5)
        #expect(planner.cues(for: split, atSeconds: 118.5, upcoming: end).isEmpty)
        #expect(planner.cues(for: .paused(at: .seconds(119)), upcoming: end).map(\.text) == ["Paused."])
    }

    @Test("with the closing cue switched off, the last countdown stays and nothing is placed ahead")
    func switchedOff() throws {
        let workout = try Workout(parsing: "60s run")
        var planner = CuePlanner(workout: workout, enabled: CueKind.defaultEnabled.subtracting([.complete]), timing: Self.timing)
        #expect(planner.closing(endingAt: 60, nowSeconds: 58, distanceMetres: 180, durationSeconds: 60, leadSeconds: 1.5).isEmpty)
        #expect(!planner.closed)
        #expect(planner.cues(for: .countdown(secondsLeft: 1, nextIndex: nil, at: .seconds(59)), upcoming: nil).map(\.text) == ["1"])
    }

    /// Runs `spec` over a steady 3 m/s track and returns the runner.
    func session(_ spec: String, seconds: Double) throws -> SessionRunner {
        var track = TestTrack()
        track.seconds = seconds
        var options = SessionOptions()
        options.speechTiming = Self.timing
        var runner = SessionRunner(workout: try Workout(parsing: spec), options: options)
        let fixes = track.fixes()
        let start = try #require(fixes.first).time
        _ = runner.start(at: .zero, utc: start)
        for fix in fixes { _ = runner.ingest(fix, at: fix.time.since(start)) }
        return runner
    }

    @Test("a session ending on a time phase: the closing cue ends on the end, with the totals expected there")
    func timeEnding() throws {
        let runner = try session("3m run, 2m walk", seconds: 320)
        let closing = try #require(runner.cues.last)
        #expect(closing.kind == .complete && abs(closing.endSeconds - 300) < 1e-9)
        #expect(!runner.cues.contains { $0.kind == .countdown && $0.anchorSeconds > 296 }, "no countdown under it")
        let summary = runner.summary(linesBad: 0)
        let said = EnglishPhrases().complete(distanceMetres: summary.distanceMetres, durationSeconds: 300,
                                              paceSecondsPerUnit: nil, units: .metric)
        #expect(closing.text.hasPrefix(said), "\"\(closing.text)\" for \(summary.distanceMetres) m")
        for (a, b) in zip(runner.cues, runner.cues.dropFirst()) { #expect(a.endSeconds <= b.atSeconds) }
    }

    @Test("a session ending on a distance phase: the end is estimated from the pace, within a fraction of a second")
    func distanceEnding() throws {
        let runner = try session("400m run, 200m walk", seconds: 260)
        let closing = try #require(runner.cues.last)
        let end = try #require(runner.engine.records.last).end.seconds
        #expect(runner.engine.state == .completed)
        #expect(closing.kind == .complete && abs(closing.endSeconds - end) < 0.3, "cue ends \(closing.endSeconds) s, workout \(end) s")
        #expect(closing.text.hasPrefix("Workout complete. 600 metres in 3 minutes 20 seconds."), "\(closing.text)")
    }
}
