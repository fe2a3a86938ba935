import Testing
@testable import RunWalkCore

@Suite("WorkoutEngine until hr")
struct HeartRateConditionEngineTests {
    /// Runs `spec` second by second with the heart rate `bpm(t)` sampled every `every` seconds
    /// (the sample's own time is that second); returns the phase records.
    static func run(_ spec: String, seconds: Int, every: Int = 1, bpm: ((Int) -> Double)?) throws -> [PhaseRecord] {
        var engine = WorkoutEngine(workout: try Workout(parsing: spec))
        var events = engine.start(at: .zero)
        for t in 1...seconds {
            let reading = bpm.flatMap { f in t % every == 0 ? HeartRateReading(bpm: f(t), time: .seconds(t)) : nil }
            events += engine.advance(to: .seconds(t), distanceMetres: 0, heartRate: reading)
        }
        events += engine.stop(at: .seconds(seconds), distanceMetres: 0)
        return WorkoutEngineTests.phaseEnds(events)
    }

    /// A saw tooth fixed in time: up 1 bpm a second from 100 to 160 over 0–60 s, down to 100 by 120 s.
    static func saw(_ t: Int) -> Double {
        let x = t % 120
        return x <= 60 ? Double(100 + x) : Double(220 - x)
    }

    @Test("a run ends at the sample where the heart rate rises to 150, a walk where it falls to 120")
    func endsOnThreshold() throws {
        let records = try Self.run("run until hr 150, walk until hr 120, run until hr 150", seconds: 200, bpm: Self.saw)
        #expect(records.count == 3)
        #expect(records[0].end == .seconds(50), "150 bpm is reached at 50 s")
        #expect(records[0].reason == .completed)
        #expect(records[1].end == .seconds(100), "falls to 120 at 100 s")
        #expect(records[2].end == .seconds(170), "rises to 150 again at 170 s")
    }

    @Test("within 2 s of the sample that reaches the threshold, with samples every 2 s and ticks every second")
    func withinTwoSeconds() throws {
        let records = try Self.run("run until hr 151", seconds: 100, every: 2, bpm: Self.saw)
        // 151 is reached at 51 s; the first sample at or above it is at 52 s.
        let end = try #require(records.first?.end)
        #expect(end >= .seconds(51) && end <= .seconds(53))
        #expect(end == .seconds(52), "the phase ends at the sample's own time")
    }

    @Test("min holds the phase; max ends it without the heart rate getting there")
    func bounds() throws {
        let held = try Self.run("run until hr 150 min 55s, walk 10s", seconds: 120, bpm: Self.saw)
        #expect(held[0].end == .seconds(55), "reached at 50 s, still above at 55 s: ends at the min")
        let capped = try Self.run("run until hr 170 max 90s, walk 10s", seconds: 120, bpm: Self.saw)
        #expect(capped[0].end == .seconds(90))
        #expect(capped[0].activeDuration == .seconds(90))
        let none = try Self.run("walk until hr below 110 max 2m, run 10s", seconds: 140, bpm: nil)
        #expect(none[0].end == .seconds(120), "no heart rate at all: the max ends it")
    }

    @Test("a stale reading does not end a phase, and an open condition has no countdown, halfway or time left")
    func staleAndOpen() throws {
        var engine = WorkoutEngine(workout: try Workout(parsing: "run until hr 150, walk 1m"))
        _ = engine.start(at: .zero)
        _ = engine.advance(to: .seconds(10), distanceMetres: 0, heartRate: HeartRateReading(bpm: 120, time: .seconds(10)))
        #expect(engine.remaining(at: .seconds(10)) == nil)
        var events = engine.advance(to: .seconds(20), distanceMetres: 0, heartRate: HeartRateReading(bpm: 155, time: .seconds(12)))
        #expect(WorkoutEngineTests.phaseEnds(events).first?.end == .seconds(12), "a reading 8 s old still names its own time")
        engine = WorkoutEngine(workout: try Workout(parsing: "run until hr 150 min 30s, walk 1m"))
        _ = engine.start(at: .zero)
        events = engine.advance(to: .seconds(5), distanceMetres: 0, heartRate: HeartRateReading(bpm: 155, time: .seconds(5)))
        events += engine.advance(to: .seconds(40), distanceMetres: 0)
        #expect(WorkoutEngineTests.phaseEnds(events).isEmpty, "at the min the reading is 25 s old: no end")
        events += engine.advance(to: .seconds(7200), distanceMetres: 0)
        #expect(!events.contains { if case .halfway = $0 { return true } else { return false } })
        #expect(!events.contains { if case .countdown = $0 { return true } else { return false } })
    }
}
