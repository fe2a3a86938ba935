import Foundation
import RunWalkCore
import RunWalkRuntime
import Testing

@Suite("SessionLoop on a test clock")
struct SessionLoopTests {
    final class Statuses: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [SessionStatus] = []
        func add(_ status: SessionStatus) { lock.withLock { all.append(status) } }
        var list: [SessionStatus] { lock.withLock { all } }
    }

    @Test("the timer wakes the loop each second of the phase; commands pause, skip and stop it; the status follows")
    func ticksAndCommands() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        let control = SessionControl()
        let statuses = Statuses()
        control.observe { statuses.add($0) }
        let loop = SessionLoop(workout: try Workout(parsing: "1m run, 1m walk, 1m run"),
                               settings: .init(start: .now, clock: .session(scale: 1)))
        let task = Task { await loop.run(source: source, clock: clock, control: control) }
        #expect(await eventually { control.status?.stage == .running && clock.sleeperCount > 0 })
        // No fixes at all: time alone moves the phase on, one status a second.
        for _ in 0..<10 {
            // Counted before the advance: the timer thread may publish the next status at once.
            let before = statuses.list.count
            clock.advance(by: .seconds(1))
            #expect(await eventually { statuses.list.count > before })
        }
        #expect(control.status?.phaseRemainingSeconds == 50)
        #expect(control.status?.gps.state == .noFix)
        control.send(.pause)
        #expect(await eventually { control.status?.paused == true })
        clock.advance(by: .seconds(5))
        #expect(await eventually { (control.status?.elapsedSeconds ?? 0) >= 15 })
        #expect(control.status?.phaseRemainingSeconds == 50, "paused: the time left stands still")
        control.send(.skip)
        #expect(await eventually { control.status?.phase?.kind == .walk })
        #expect(control.status?.paused == false)
        clock.advance(by: .seconds(60))
        #expect(await eventually { control.status?.phase?.index == 2 })
        control.send(.stop)
        let result = await task.value
        #expect(result.summary.state == .stopped)
        #expect(result.summary.phases.map(\.endReason) == [.skipped, .completed, .stopped])
        #expect(result.summary.pausedSeconds == 5)
        #expect(control.hasEnded)
        source.end()
    }

    @Test("a source that ends before the workout: incomplete")
    func sourceEnds() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        let loop = SessionLoop(workout: try Workout(parsing: "10m run"), settings: .init(start: .now, clock: .track))
        let task = Task { await loop.run(source: source, clock: clock) }
        for fix in SyntheticTrack.fixes(seconds: 30, speed: { _ in 3 }) { source.send(.fix(fix)) }
        source.end()
        let result = await task.value
        #expect(result.summary.state == .incomplete)
        #expect(result.summary.durationSeconds == 30)
        #expect(abs(result.summary.distanceMetres - 90) < 3)
    }
}
