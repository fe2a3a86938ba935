import Foundation
import RunWalkCore
import RunWalkGPS
import RunWalkRuntime
import Testing

@Suite("SessionDriver")
struct SessionDriverTests {
    static let workout = "5m warmup, 8x(90s run, 60s walk), 5m cooldown"

    @Test("replay with pause@5:00,resume@6:00: paused 60 s, elapsed 60 s over the duration, the paused minute not counted")
    func scriptedPause() async throws {
        let workout = try Workout(parsing: Self.workout)
        let track = SyntheticTrack.sample + "/track-loop.nmea"
        let plain = await SessionLoop.replaying(workout).replay(track: track)
        let script = try ScriptedCommand.parseList("pause@5:00,resume@6:00")
        let log = SessionEventLog()
        let paused = await SessionLoop.replaying(workout, script: script).replay(track: track, hooks: log.hooks)
        let s = paused.summary
        #expect(s.pausedSeconds == 60)
        #expect(s.elapsedSeconds == s.durationSeconds + 60)
        let kinds: [SessionEventKind] = (s.events ?? []).map(\.kind).filter { $0 == .pause || $0 == .resume }
        #expect(kinds == [.pause, .resume])
        #expect(s.events?.first { $0.kind == .pause }?.atSeconds == 300)
        #expect(s.events?.first { $0.kind == .resume }?.atSeconds == 360)
        // The run phase that was paused (index 1, from 5:00) ends 60 s later on the track.
        let run = try #require(s.phases.first { $0.index == 1 })
        #expect(run.startSeconds == 300 && run.durationSeconds == 90)
        let walk = try #require(s.phases.first { $0.index == 2 })
        #expect(walk.startSeconds == 450, "the next phase starts at 5:00 + 60 s paused + 90 s run")
        // The minute paused is not counted: the paused run phase holds what was moved from 6:00 to
        // 7:30 on the track, not what was moved from 5:00 to 6:00 while paused.
        func telemetryDistance(at seconds: Double) -> Double {
            log.events.compactMap { event -> Double? in
                if case .telemetry(let update, let clock) = event, clock <= seconds { return update.distanceMetres } else { return nil }
            }.last ?? 0
        }
        let whilePaused = telemetryDistance(at: 360) - telemetryDistance(at: 300)
        #expect(whilePaused > 50, "the runner moved while paused (\(whilePaused) m)")
        let afterResume = telemetryDistance(at: 450) - telemetryDistance(at: 360)
        // Within one fix's step: the step that ends at the resume is counted whole.
        #expect(abs(run.distanceMetres - afterResume) < 4, "paused run \(run.distanceMetres) m, moved after resuming \(afterResume) m")
        #expect(abs(s.distanceMetres - (telemetryDistance(at: 1860) - whilePaused)) < 3, "total excludes the paused minute")
        #expect(plain.summary.distanceMetres > 0)
        // The cues say so.
        let texts = s.cues.map(\.text)
        #expect(texts.contains("Paused."))
        #expect(texts.contains("Resumed. Run, 1 minute 30 to go."))
    }

    @Test("skip and restart from a script: the skipped phase ends early, the restarted one is recorded and runs again in full")
    func skipAndRestart() async throws {
        let workout = try Workout(parsing: "2m warmup, 2x(90s run, 60s walk)")
        let script = try ScriptedCommand.parseList("skip@1:00, restart@1:30")
        let result = await SessionLoop.replaying(workout, script: script).replay(track: SyntheticTrack.sample + "/track-loop.nmea")
        let phases = result.summary.phases
        #expect(phases.map(\.index) == [0, 1, 1, 2, 3, 4])
        #expect(phases.map(\.endReason) == [.skipped, .restarted, .completed, .completed, .completed, .completed])
        #expect(phases[0].durationSeconds == 60)
        #expect(phases[1].durationSeconds == 30)
        #expect(phases[2].startSeconds == 90 && phases[2].durationSeconds == 90)
        #expect(result.summary.events?.map(\.kind) == [.start, .skip, .restart, .completed])
        #expect(result.summary.state == .completed)
        #expect(result.summary.cues.filter { $0.text == "Run for 90 seconds." }.count == 3, "the restart says the phase again")
    }

    @Test("auto-pause: standing 5 s pauses, moving resumes; a walk at walking speed never pauses")
    func autoPause() throws {
        let workout = try Workout(parsing: "3m run, 3m walk")
        // Runs 60 s, stands 40 s, runs to 180 s, then walks at 1.2 m/s.
        let fixes = SyntheticTrack.fixes(seconds: 400) { t in
            if t < 60 { return 3 }
            if t < 100 { return 0 }
            return t < 180 ? 3 : 1.2
        }
        var driver = SessionDriver(workout: workout, settings: .init(start: .now, clock: .track, autoPause: true))
        var events: [SessionEvent] = []
        for fix in fixes { events += driver.handle(.fix(fix), now: .zero).events }
        let summary = driver.summary()
        let kinds = summary.events?.map(\.kind) ?? []
        #expect(kinds.filter { $0 == .autoPause }.count == 1, "\(kinds)")
        #expect(kinds.filter { $0 == .autoResume }.count == 1, "\(kinds)")
        let pause = try #require(summary.events?.first { $0.kind == .autoPause })
        let resume = try #require(summary.events?.first { $0.kind == .autoResume })
        #expect(pause.atSeconds > 60 && pause.atSeconds < 70, "paused at \(pause.atSeconds)")
        #expect(resume.atSeconds >= 100 && resume.atSeconds < 106, "resumed at \(resume.atSeconds)")
        #expect(summary.pausedSeconds > 30)
        // The walk phase (from 180 s + the pause) was never taken for standing.
        #expect(!summary.events!.contains { $0.kind == .autoPause && $0.phaseIndex == 1 })
        #expect(summary.state == .completed)
    }

    @Test("a watch that records every 5 s is not 'lost' between its points; a real 30 s gap is")
    func lostFollowsCadence() throws {
        let workout = try Workout(parsing: "10m run")
        var fixes = SyntheticTrack.fixes(seconds: 300, interval: 5) { _ in 3 }
        fixes.removeAll { $0.time.milliseconds >= SyntheticTrack.start + 150_000 && $0.time.milliseconds < SyntheticTrack.start + 180_000 }
        var driver = SessionDriver(workout: workout, settings: .init(start: .now, clock: .track))
        for fix in fixes { _ = driver.handle(.fix(fix), now: .zero) }
        let gaps = driver.runner.gpsGaps
        #expect(gaps.count == 1, "\(gaps)")
        // Last position at 145 s; 2.5 × the 5 s cadence later it counts as lost; back at 180 s.
        #expect(gaps.first?.startSeconds == 157.5)
        #expect(gaps.first?.endSeconds == 180)
    }

    @Test("live: waits for a fix, counts 3-2-1, runs; the GPS lost shows no pace; a stop finalises")
    func liveStatus() throws {
        let workout = try Workout(parsing: "1m run, 1m walk")
        var driver = SessionDriver(workout: workout, settings: .init(start: .fix))
        _ = driver.begin(now: .zero, utc: nil)
        #expect(driver.status(at: .seconds(1)).stage == .waitingForFix)
        #expect(driver.status(at: .seconds(1)).gps.state == .noFix)
        var noFix = Fix(time: UTCTime(milliseconds: SyntheticTrack.start))
        noFix.satellitesVisible = 4
        _ = driver.handle(.fix(noFix), now: .seconds(2))
        #expect(driver.status(at: .seconds(2)).stage == .waitingForFix)
        let fixes = SyntheticTrack.fixes(seconds: 30) { _ in 3 }
        _ = driver.handle(.fix(fixes[0]), now: .seconds(5))
        var status = driver.status(at: .seconds(5.5))
        #expect(status.stage == .startCountdown)
        #expect(status.startCountdownSeconds == 3)
        #expect(status.next?.kind == .run)
        for (i, fix) in fixes.enumerated().dropFirst() { _ = driver.handle(.fix(fix), now: .seconds(5 + i)) }
        status = driver.status(at: .seconds(35))
        #expect(status.stage == .running)
        #expect(status.phase?.kind == .run)
        #expect(status.phaseRemainingSeconds == 33, "3 s countdown, then 27 s of the minute gone at 35 s")
        #expect(status.gps.state == .fix && status.gps.satellites == 9)
        #expect(status.currentPaceSecondsPerKm != nil)
        #expect(abs(status.distanceMetres - 81) < 5, "\(status.distanceMetres)")
        // No fix for 4 s: lost, and no stale pace.
        _ = driver.tick(now: .seconds(39))
        status = driver.status(at: .seconds(39))
        #expect(status.gps.state == .lost)
        #expect(status.currentPaceSecondsPerKm == nil)
        #expect(status.gps.lostForSeconds == 1, "lost at 38 s (3 s after the last position)")
        _ = driver.command(.pause, now: .seconds(40))
        status = driver.status(at: .seconds(50))
        #expect(status.paused && status.stage == .paused)
        #expect(status.phaseRemainingSeconds == 28, "the time left stands still while paused")
        _ = driver.command(.stop, now: .seconds(50))
        #expect(driver.isFinished)
        #expect(driver.summary().state == .stopped)
        #expect(driver.summary().pausedSeconds == 10)
    }

    @Test("--control lists: times and commands parsed, errors named")
    func scriptParsing() throws {
        let parsed = try ScriptedCommand.parseList("resume@6:30, pause@5:00,skip@1:02:03,stop@90s")
        #expect(parsed.map(\.command) == [.stop, .pause, .resume, .skip])
        #expect(parsed.map(\.atSeconds) == [90, 300, 390, 3723])
        let error = #expect(throws: ScriptedCommand.ParseError.self) { try ScriptedCommand.parseList("jump@5:00") }
        #expect(error?.description == "--control \"jump@5:00\": unknown command \"jump\": expected one of pause, resume, toggle, skip, restart, stop, start")
        #expect(throws: ScriptedCommand.ParseError.self) { try ScriptedCommand.parseList("pause@5:75") }
        #expect(throws: ScriptedCommand.ParseError.self) { try ScriptedCommand.parseList("pause") }
    }
}
