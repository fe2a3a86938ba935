import Testing
@testable import RunWalkCore

/// A manual clock for the engine: time is a test input.
struct ManualClock {
    private(set) var now: Duration = .zero
    mutating func advance(by step: Duration) { now += step }
}

@Suite("WorkoutEngine")
struct WorkoutEngineTests {
    static func engine(_ spec: String, getReady: Duration = .zero) throws -> WorkoutEngine {
        WorkoutEngine(workout: try Workout(parsing: spec), getReady: getReady)
    }

    static func phaseEnds(_ events: [EngineEvent]) -> [PhaseRecord] {
        events.compactMap { if case .phaseEnded(let r) = $0 { return r } else { return nil } }
    }

    @Test("phases start and end exactly at their planned times")
    func plannedBoundaries() throws {
        var engine = try Self.engine("5m warmup, 8x(90s run, 60s walk), 5m cooldown")
        var clock = ManualClock()
        var events = engine.start(at: clock.now)
        while engine.state == .active {
            clock.advance(by: .seconds(1))
            events += engine.advance(to: clock.now, distanceMetres: 0)
        }
        let records = Self.phaseEnds(events)
        #expect(records.count == 18)
        var expectedStart = Duration.zero
        for record in records {
            #expect(record.start == expectedStart, "phase \(record.index)")
            #expect(record.activeDuration == record.planned.target.durationSeconds.map { .seconds(Int($0)) })
            expectedStart = record.end
        }
        #expect(engine.state == .completed)
        #expect(events.last == .workoutCompleted(at: .seconds(1800)))
    }

    @Test("10 000 pause/resume cycles add zero drift")
    func pauseResumeDrift() throws {
        var engine = try Self.engine("2h run")
        var clock = ManualClock()
        _ = engine.start(at: clock.now)
        var paused = Duration.zero
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<10_000 {
            clock.advance(by: .milliseconds(Int64.random(in: 1...300, using: &rng)))
            _ = engine.pause(at: clock.now, distanceMetres: 0)
            let pause = Duration.milliseconds(Int64.random(in: 1...700, using: &rng)) + .nanoseconds(Int64.random(in: 0...999_999, using: &rng))
            clock.advance(by: pause)
            paused += pause
            _ = engine.resume(at: clock.now, distanceMetres: 0)
        }
        // The phase ends exactly two hours of active time after the start.
        #expect(engine.phaseEnd == .seconds(7200) + paused)
        #expect(engine.elapsedInPhase(at: clock.now) == clock.now - paused)
        let events = engine.advance(to: .seconds(7200) + paused + .seconds(5), distanceMetres: 0)
        #expect(Self.phaseEnds(events).first?.end == .seconds(7200) + paused)
        #expect(Self.phaseEnds(events).first?.activeDuration == .seconds(7200))
    }

    @Test("a phase ends at its end time to the millisecond however irregularly it is polled", arguments: [1, 2, 3, 4, 5])
    func irregularPolling(seed: UInt64) throws {
        var engine = try Self.engine("3x(90s run, 60s walk)")
        var rng = SeededGenerator(seed: seed)
        var clock = ManualClock()
        var events = engine.start(at: clock.now)
        while engine.state == .active {
            // Polls from 1 ms to 7 s apart, never on a boundary by design.
            clock.advance(by: .microseconds(Int64.random(in: 1_000...7_000_000, using: &rng)))
            events += engine.advance(to: clock.now, distanceMetres: 0)
        }
        let ends = Self.phaseEnds(events).map(\.end)
        #expect(ends == [90, 150, 240, 300, 390, 450].map { Duration.seconds($0) })
        // Countdown events fall on whole seconds before each boundary.
        let countdowns = events.compactMap { event -> Duration? in
            if case .countdown(_, _, let at) = event { return at } else { return nil }
        }
        #expect(countdowns.prefix(3) == [.seconds(87), .seconds(88), .seconds(89)])
        #expect(countdowns.count == 18)
        // 90 s and 60 s phases are too short for a halfway event.
        #expect(!events.contains { if case .halfway = $0 { return true } else { return false } })
        // Events are reported in time order.
        #expect(events.map(\.time) == events.map(\.time).sorted())
    }

    @Test("skip records the real elapsed time and starts the next phase at once")
    func skip() throws {
        var engine = try Self.engine("90s run, 60s walk")
        _ = engine.start(at: .zero)
        _ = engine.advance(to: .milliseconds(41_250), distanceMetres: 120)
        let events = engine.skip(at: .milliseconds(41_250), distanceMetres: 120)
        let record = try #require(Self.phaseEnds(events).first)
        #expect(record.activeDuration == .milliseconds(41_250))
        #expect(record.reason == .skipped)
        #expect(record.distanceMetres == 120)
        #expect(events.contains(.phaseStarted(index: 1, at: .milliseconds(41_250))))
        #expect(engine.phaseEnd == .milliseconds(41_250) + .seconds(60))
    }

    @Test("stop while paused records the active time, not the paused time")
    func stopWhilePaused() throws {
        var engine = try Self.engine("10m run")
        _ = engine.start(at: .zero)
        _ = engine.pause(at: .seconds(100), distanceMetres: 300)
        let events = engine.stop(at: .seconds(160), distanceMetres: 300)
        let record = try #require(Self.phaseEnds(events).first)
        #expect(record.activeDuration == .seconds(100))
        #expect(record.end == .seconds(160))
        #expect(record.reason == .stopped)
        #expect(engine.state == .stopped)
        #expect(events.last == .workoutStopped(at: .seconds(160)))
    }

    @Test("distance covered while paused does not count toward the phase")
    func pausedDistance() throws {
        var engine = try Self.engine("400m run, 1m walk")
        _ = engine.start(at: .zero)
        _ = engine.advance(to: .seconds(30), distanceMetres: 100)
        _ = engine.pause(at: .seconds(30), distanceMetres: 100)
        _ = engine.advance(to: .seconds(60), distanceMetres: 150)
        _ = engine.resume(at: .seconds(60), distanceMetres: 150)
        let before = engine.advance(to: .seconds(100), distanceMetres: 440)
        #expect(Self.phaseEnds(before).isEmpty, "only 340 m count so far")
        let events = engine.advance(to: .seconds(110), distanceMetres: 460)
        let record = try #require(Self.phaseEnds(events).first)
        // 450 m fed reaches 400 m in the phase; crossing interpolated between 440 m at 100 s and 460 m at 110 s.
        #expect(record.end == .seconds(105))
        #expect(record.distanceMetres == 400)
    }

    @Test("a distance phase ends at the interpolated crossing, and the next one starts there")
    func distanceCrossing() throws {
        var engine = try Self.engine("400m run, 200m walk")
        _ = engine.start(at: .zero)
        var events = engine.advance(to: .seconds(100), distanceMetres: 390)
        // Halfway (200 m) interpolated between 0 m at 0 s and 390 m at 100 s.
        #expect(events == [.halfway(index: 0, at: .microseconds(51_282_051))])
        events += engine.advance(to: .seconds(102), distanceMetres: 410)
        let first = try #require(Self.phaseEnds(events).first)
        #expect(first.end == .seconds(101))
        #expect(events.contains(.phaseStarted(index: 1, at: .seconds(101))))
        events = engine.advance(to: .seconds(300), distanceMetres: 800)
        #expect(Self.phaseEnds(events).first?.distanceMetres == 200)
        #expect(engine.state == .completed)
    }

    @Test("a get-ready countdown precedes the first phase")
    func getReady() throws {
        var engine = try Self.engine("1m run", getReady: .seconds(10))
        var events = engine.start(at: .seconds(5))
        #expect(engine.state == .countdown)
        events += engine.advance(to: .seconds(20), distanceMetres: 0)
        #expect(Array(events.prefix(4)) == [
            .countdown(secondsLeft: 3, nextIndex: 0, at: .seconds(12)),
            .countdown(secondsLeft: 2, nextIndex: 0, at: .seconds(13)),
            .countdown(secondsLeft: 1, nextIndex: 0, at: .seconds(14)),
            .phaseStarted(index: 0, at: .seconds(15)),
        ])
        #expect(engine.phaseEnd == .seconds(75))
    }

    @Test("halfway comes once, halfway through a long time phase, moved by pauses")
    func halfway() throws {
        var engine = try Self.engine("2m run")
        _ = engine.start(at: .zero)
        _ = engine.pause(at: .seconds(10), distanceMetres: 0)
        _ = engine.resume(at: .seconds(40), distanceMetres: 0)
        let events = engine.advance(to: .seconds(95), distanceMetres: 0)
        #expect(events == [.halfway(index: 0, at: .seconds(90))])
        #expect(engine.advance(to: .seconds(96), distanceMetres: 0).isEmpty)
    }

    @Test("commands in the wrong state do nothing")
    func wrongState() throws {
        var engine = try Self.engine("1m run")
        #expect(engine.pause(at: .zero, distanceMetres: 0).isEmpty)
        #expect(engine.resume(at: .zero, distanceMetres: 0).isEmpty)
        _ = engine.start(at: .zero)
        #expect(engine.start(at: .seconds(1)).isEmpty)
        _ = engine.advance(to: .seconds(61), distanceMetres: 0)
        #expect(engine.state == .completed)
        #expect(engine.skip(at: .seconds(62), distanceMetres: 0).isEmpty)
        #expect(engine.stop(at: .seconds(62), distanceMetres: 0).isEmpty)
    }
}
