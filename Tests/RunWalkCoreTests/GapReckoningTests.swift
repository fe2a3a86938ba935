import Testing
@testable import RunWalkCore

/// While fixes are missing in a live run, the engine goes by the distance reckoned from the plan.
@Suite("Dead reckoning through a GPS gap")
struct GapReckoningTests {
    /// A live run over `track`: each fix at its time, and the clock ticking every half second in between.
    func liveRun(_ spec: String, track: TestTrack) throws -> SessionRunner {
        var runner = SessionRunner(workout: try Workout(parsing: spec))
        let fixes = track.fixes()
        let start = try #require(fixes.first).time
        _ = runner.start(at: .zero, utc: start)
        var tick = 0.0
        for fix in fixes {
            let at = fix.time.since(start)
            while tick + 0.5 < at.seconds {
                tick += 0.5
                _ = runner.advance(to: .seconds(tick))
            }
            _ = runner.ingest(fix, at: at)
            tick = at.seconds
        }
        return runner
    }

    /// Walking at 1.4 m/s until 180 s, running at 3 m/s after.
    static func walkThenRun() -> TestTrack {
        var track = TestTrack()
        track.speed = { $0 < 180 ? 1.4 : 3.0 }
        track.seconds = 300
        return track
    }

    @Test("a time phase that ends inside a gap gets the distance covered in it, not the phase where fixes return")
    func phaseEndingInGap() throws {
        var track = Self.walkThenRun()
        track.dropout = (160, 200)
        let runner = try liveRun("3m walk, 2m run", track: track)
        let clean = try liveRun("3m walk, 2m run", track: Self.walkThenRun())
        let walk = try #require(runner.engine.records.first), cleanWalk = try #require(clean.engine.records.first)
        // 180 s at 1.4 m/s: 252 m; before reckoning the walk ended with the 224 m it had at 160 s.
        #expect(abs(walk.distanceMetres - 252) < 252 * 0.02, "walk \(walk.distanceMetres) m")
        #expect(abs(walk.distanceMetres - cleanWalk.distanceMetres) < 4)
        let total = runner.engine.records.reduce(0) { $0 + $1.distanceMetres }
        #expect(abs(total - track.trueDistance(to: 300)) < track.trueDistance(to: 300) * 0.01, "total \(total) m")
        #expect(abs(total - runner.activeDistanceMetres) < 0.01, "counted once")
    }

    @Test("a distance phase can end inside a gap, near where the runner reached its target")
    func distancePhaseEndsInGap() throws {
        var track = TestTrack()
        track.seconds = 200
        track.dropout = (120, 160)
        let runner = try liveRun("400m run, 1m walk", track: track)
        let run = try #require(runner.engine.records.first)
        // 400 m at 3 m/s: 133.3 s, inside the gap.
        #expect(abs(run.end.seconds - 400.0 / 3) < 2, "the run ended at \(run.end.seconds) s")
    }

    @Test("a later phase inside the gap is reckoned at the runner's pace in earlier phases of its kind")
    func laterPhaseAtTypicalPace() throws {
        var track = TestTrack()
        // Run 3 m/s, walk 1.4 m/s, a 30 s run, walk: the gap holds the whole short run.
        track.speed = { t in t < 90 || (t >= 180 && t < 210) ? 3.0 : 1.4 }
        track.seconds = 270
        track.dropout = (170, 220)
        let runner = try liveRun("90s run, 90s walk, 30s run, 60s walk", track: track)
        let records = runner.engine.records
        try #require(records.count == 4)
        #expect(abs(records[1].distanceMetres - 126) < 126 * 0.03, "walk \(records[1].distanceMetres) m")
        // At the first run's pace (3 m/s), not the walking pace the gap began with: 90 m, not about 41.
        #expect(abs(records[2].distanceMetres - 90) < 90 * 0.05, "short run \(records[2].distanceMetres) m")
        // The reckoning only shares the distance out: the total is the telemetry's, counted once.
        let total = records.reduce(0) { $0 + $1.distanceMetres }
        #expect(abs(total - runner.activeDistanceMetres) < 0.01, "phases \(total) m, telemetry \(runner.activeDistanceMetres) m")
    }
}
