import Foundation
import RunWalkCore
import RunWalkGPS
import RunWalkRuntime
import Synchronization
import Testing

/// Runs `body` (a session loop) and gives its result, or nil when it has not ended within
/// `seconds`: the loop's task is then cancelled (the loop ends where it is), so a test that
/// would hang fails instead.
func within<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async -> T) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// A source on its own thread, as the file source is: it hands out its fixes, then either ends
/// or, like a pipe that stays open, waits for more that never come until it is stopped.
private final class OpenEndedSource: LocationSource, @unchecked Sendable {
    let description = "open-ended test source"
    let fixes: [Fix]
    /// What its drain answers (false: the rest may never come).
    let canDrain: Bool
    let drained = Mutex(false)
    let stopped = DispatchSemaphore(value: 0)

    init(fixes: [Fix], canDrain: Bool) {
        self.fixes = fixes
        self.canDrain = canDrain
    }

    func events() -> AsyncStream<LocationEvent> { AsyncStream { $0.finish() } }

    func startWithHandle(sink: @escaping @Sendable (LocationEvent?) -> Void) -> SourceHandle? {
        let fixes = self.fixes, stopped = self.stopped
        Thread.detachNewThread {
            for fix in fixes { sink(.fix(fix)) }
            // The rest never comes: the thread waits until it is stopped, then ends.
            stopped.wait()
            sink(nil)
        }
        return SourceHandle(stop: { stopped.signal() }, drain: { [self] in
            drained.withLock { $0 = true }
            return canDrain
        })
    }
}

@Suite("SessionLoop: every stop ends the session; a completed workout ends its replay", .timeLimit(.minutes(6)))
struct SessionStopTests {
    // MARK: A replay whose workout is over

    @Test("a paced replay ends with its workout, not with its track (track-loop, 20 s run at 10x: was 181 s)",
          .timeLimit(.minutes(3)))
    func pacedReplayEndsWithWorkout() async throws {
        let path = SyntheticTrack.sample + "/track-loop.nmea"
        let loop = SessionLoop.replaying(try Workout(parsing: "20s run"))
        let began = ContinuousClock.now
        // Bounds far above the 2 s of workout and well below the 181 s of track: a whole test run
        // on 2 busy cores kept this task from its thread for 30 s once.
        let paced = await within(seconds: 120) { await loop.replay(track: path, speed: 10) }
        let result = try #require(paced, "the replay did not end within 120 s of a 2 s workout")
        let took = began.duration(to: .now)
        #expect(result.summary.state == .completed)
        #expect(took < .seconds(90), "took \(took)")
        // The rest of the track is still read (unpaced) for what it has to say: the same
        // summary as a replay as fast as possible.
        let fast = await loop.replay(track: path)
        #expect(result.summary.fixes == fast.summary.fixes)
        #expect(result.summary.durationSeconds == fast.summary.durationSeconds)
    }

    @Test("a source whose rest may never come (a pipe left open) ends the loop with the workout")
    func openPipeEndsWithWorkout() async throws {
        let source = OpenEndedSource(fixes: SyntheticTrack.fixes(seconds: 30, speed: { _ in 3 }), canDrain: false)
        var open = SessionLoop.replaying(try Workout(parsing: "10s run"))
        open.readsSourceToEnd = true
        let loop = open
        let ended = await within(seconds: 60) { await loop.run(source: source, clock: ContinuousClock()) }
        let result = try #require(ended, "the loop waited for the rest of an open pipe")
        #expect(result.summary.state == .completed)
        #expect(source.drained.withLock { $0 }, "the source was asked for its rest")
    }

    @Test("a stop while the rest of the track is read ends the loop at once, the workout completed")
    func stopWhileDraining() async throws {
        let source = OpenEndedSource(fixes: SyntheticTrack.fixes(seconds: 30, speed: { _ in 3 }), canDrain: true)
        var draining = SessionLoop.replaying(try Workout(parsing: "10s run"))
        draining.readsSourceToEnd = true
        let loop = draining
        let control = SessionControl()
        let task = Task { await within(seconds: 60) { await loop.run(source: source, clock: ContinuousClock(), control: control) } }
        #expect(await eventually { source.drained.withLock { $0 } })
        #expect(control.status?.stage == .completed)
        control.send(.stop)
        let result = try #require(await task.value, "the stop was ignored while the track was read to its end")
        #expect(result.summary.state == .completed, "the workout had completed before the stop")
    }

    // MARK: A stop in every state of a live session

    /// A live loop on a manual clock, its fixes from a scripted source.
    struct Live {
        let clock = ManualClock()
        let source = ScriptedSource()
        let control = SessionControl()
        /// Fixes the loop has taken in (their telemetry events): a tick of the timer thread can
        /// publish a status before a fix sent at the same clock time is handled.
        let fixesTaken = Count()
        let task: Task<SessionLoop.Result?, Never>

        final class Count: @unchecked Sendable {
            private let lock = Lock()
            private var value = 0
            func add() { lock.withLock { value += 1 } }
            var count: Int { lock.withLock { value } }
        }

        init(_ workout: String, start: SessionDriver.StartPolicy, countdown: Duration = .seconds(3)) throws {
            var settings = SessionDriver.Settings(start: start, clock: .session(scale: 1))
            settings.startCountdown = countdown
            let loop = SessionLoop(workout: try Workout(parsing: workout), settings: settings)
            let (clock, source, control, fixesTaken) = (self.clock, self.source, self.control, self.fixesTaken)
            let hooks = SessionLoop.Hooks(onEvent: { event in
                if case .telemetry = event { fixesTaken.add() }
            })
            // The bound is on the whole session (a full test run can keep these tasks from a thread
            // for a minute and more), far above the milliseconds a stop takes here alone.
            task = Task { await within(seconds: 150) { await loop.run(source: source, clock: clock, control: control, hooks: hooks) } }
        }

        func stage(_ stage: SessionStatus.Stage) async -> Bool {
            await eventually { control.status?.stage == stage }
        }

        /// Stops the session and gives its result (nil if it did not end).
        func stop() async -> SessionLoop.Result? {
            control.send(.stop)
            let result = await task.value
            source.end()
            return result
        }
    }

    @Test("stop while waiting for the first fix: the session ends, never started")
    func stopWaitingForFix() async throws {
        let live = try Live("10m run", start: .fix)
        #expect(await live.stage(.waitingForFix))
        let result = try #require(await live.stop())
        #expect(!result.started)
        #expect(result.driver.stopRequested)
    }

    @Test("stop during the start countdown: the session ends, stopped")
    func stopInCountdown() async throws {
        let live = try Live("10m run", start: .fix, countdown: .seconds(30))
        #expect(await live.stage(.waitingForFix))
        live.source.send(.fix(SyntheticTrack.fixes(seconds: 0, speed: { _ in 3 })[0]))
        #expect(await live.stage(.startCountdown))
        let result = try #require(await live.stop())
        #expect(result.started)
        #expect(result.summary.state == .stopped)
    }

    @Test("stop while paused: the session ends, stopped")
    func stopWhilePaused() async throws {
        let live = try Live("10m run", start: .now)
        #expect(await live.stage(.running))
        live.control.send(.pause)
        #expect(await live.stage(.paused))
        let result = try #require(await live.stop())
        #expect(result.summary.state == .stopped)
    }

    @Test("stop while the workout's end waits for the fix taken at it: the session ends at once")
    func stopInEndHold() async throws {
        let live = try Live("5s run", start: .now)
        #expect(await live.stage(.running))
        let fixes = SyntheticTrack.fixes(seconds: 10, speed: { _ in 3 })
        // Fixes once a second, each reaching the loop 0.3 s after it was taken.
        for second in 0..<5 {
            live.clock.advance(by: second == 0 ? .milliseconds(300) : .seconds(1))
            live.source.send(.fix(fixes[second]))
            #expect(await eventually { live.fixesTaken.count > second })
        }
        // 5.0 s: the workout's end, held for the fix taken at it (due by 5.8 s).
        live.clock.advance(by: .milliseconds(700))
        _ = await eventually { live.clock.sleeperCount > 0 }
        #expect(live.control.status?.stage == .running, "held at the end")
        let result = try #require(await live.stop())
        #expect(result.summary.durationSeconds <= 5)
        #expect([SessionStatus.Stage.completed, .stopped].contains(result.driver.status(at: .seconds(5)).stage))
    }
}
