import Testing
@testable import RunWalkCore

/// The session's targets fed with heart rate as plain values (bpm at a clock time), as the
/// heart-rate source will feed them.
@Suite("SessionRunner targets")
struct SessionTargetsTests {
    static func session(_ spec: String, backInBand: Bool = false) throws -> SessionRunner {
        var options = SessionOptions()
        if backInBand { options.enabledCues.insert(.targetBack) }
        var runner = SessionRunner(workout: try Workout(parsing: spec), options: options)
        _ = runner.start(at: .zero, utc: nil)
        return runner
    }

    @Test("a heart-rate band: one 'Ease off' after the grace, and the phase's time above it")
    func heartRateBand() throws {
        var runner = try Self.session("2m run @ hr 140-150, 1m walk")
        for t in 1...200 {
            let bpm: Double = t < 60 ? 145 : 160
            _ = runner.heartRate(HeartRateReading(bpm: bpm, time: .seconds(t)), at: .seconds(t))
        }
        let coaching = runner.cues.filter { $0.kind == .target }
        #expect(coaching.map(\.text) == ["Ease off, heart rate 160.", "Ease off, heart rate 160."])
        #expect(coaching.map(\.atSeconds) == [80, 110], "out from 60 s: 20 s of grace, then 30 s of quiet")
        let summary = runner.summary(linesBad: 0)
        let run = try #require(summary.phases.first)
        #expect(run.target?.text == "hr 140-150")
        #expect(run.target?.heartRateMax == 150)
        #expect(run.timeAboveSeconds == 60)
        // Before the first reading (0–1 s) there is no heart rate: below.
        #expect(run.timeBelowSeconds == 1)
        #expect(run.timeInTargetSeconds == 59)
        #expect(summary.phases[1].target == nil && summary.phases[1].timeInTargetSeconds == nil)
    }

    @Test("coaching keeps 3 s clear of the countdown and the transition")
    func clearOfBeats() throws {
        var runner = try Self.session("60s run @ hr 140-150, 1m walk")
        // Out from 10 s: said when the grace ends at 30 s; the next would be due at 60 s, on the boundary.
        for t in 1...120 {
            _ = runner.heartRate(HeartRateReading(bpm: t < 10 ? 145 : 165, time: .seconds(t)), at: .seconds(t))
        }
        let coaching = runner.cues.filter { $0.kind == .target }.map(\.atSeconds)
        let beats = runner.cues.filter { $0.kind == .transition || $0.kind == .countdown }
        #expect(coaching == [30])
        for beat in beats { #expect(abs(beat.atSeconds - 30) >= 3) }
    }

    @Test("an until-hr phase ends on the heart rate fed to the session, and is announced with its threshold")
    func untilHeartRate() throws {
        var runner = try Self.session("run until hr 150, walk 1m")
        for t in 1...100 {
            _ = runner.heartRate(HeartRateReading(bpm: Double(120 + t), time: .seconds(t)), at: .seconds(t))
        }
        #expect(runner.engine.records.first?.end == .seconds(30))
        #expect(runner.cues.first?.text == "Run until heart rate 150.")
        let summary = runner.summary(linesBad: 0)
        #expect(summary.phases.first?.planned.until == "until hr 150")
        #expect(summary.phases.first?.planned.durationSeconds == nil)
    }
}
