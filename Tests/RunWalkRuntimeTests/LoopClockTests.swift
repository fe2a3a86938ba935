import Foundation
import RunWalkCore
@testable import RunWalkRuntime
import Testing

/// The loop's timer is the same under test as live: a `ManualClock` drives the same timer thread
/// (`runwalk-clock`) that the continuous clock does, through its alarm.
@Suite("LoopClock")
struct LoopClockTests {
    /// The kernel's name of the calling thread (what `top -H` shows).
    static func threadName() -> String {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    final class Seen: @unchecked Sendable {
        private let lock = Lock()
        private var elapsedByThread: [(elapsed: Double, thread: String)] = []
        func add(_ status: SessionStatus) {
            let name = LoopClockTests.threadName()
            lock.withLock { elapsedByThread.append((status.elapsedSeconds, name)) }
        }
        var all: [(elapsed: Double, thread: String)] { lock.withLock { elapsedByThread } }
    }

    @Test("on a manual clock, the loop's ticks come from the timer thread, as live")
    func manualClockTicksOnTheTimerThread() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        let control = SessionControl()
        let seen = Seen()
        control.observe { seen.add($0) }
        let loop = SessionLoop(workout: try Workout(parsing: "1m run"), settings: .init(start: .now, clock: .session(scale: 1)))
        let task = Task { await loop.run(source: source, clock: clock, control: control) }
        #expect(await eventually { control.status?.stage == .running && clock.sleeperCount > 0 })
        clock.advance(by: .seconds(1))
        #expect(await eventually { seen.all.contains { $0.elapsed >= 1 } })
        let ticked = try #require(seen.all.first { $0.elapsed >= 1 })
        #expect(ticked.thread == "runwalk-clock", "the tick's status came from \(ticked.thread)")
        control.send(.stop)
        _ = await task.value
        source.end()
    }

    final class Rings: @unchecked Sendable {
        private let lock = Lock()
        private var rung = 0
        func ring() { lock.withLock { rung += 1 } }
        var count: Int { lock.withLock { rung } }
    }

    @Test("a manual clock rings an alarm when advanced to it, at once when it is past, and never after it is cleared")
    func alarms() throws {
        let clock = ManualClock()
        let rings = Rings()
        let owner = ObjectIdentifier(rings)
        clock.setAlarm(clock.now.advanced(by: .seconds(2)), owner: owner) { rings.ring() }
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(rings.count == 0)
        clock.advance(by: .seconds(1))
        #expect(rings.count == 1)
        #expect(clock.sleeperCount == 0, "an alarm rings once")
        clock.setAlarm(clock.now, owner: owner) { rings.ring() }
        #expect(rings.count == 2, "a deadline that has come rings at once")
        clock.setAlarm(clock.now.advanced(by: .seconds(1)), owner: owner) { rings.ring() }
        clock.setAlarm(nil, owner: owner) { rings.ring() }
        clock.advance(by: .seconds(5))
        #expect(rings.count == 2)
        #expect(clock.realTimeUntil(clock.now.advanced(by: .seconds(10))) == nil, "a manual clock's time never passes by itself")
        let live = ContinuousClock()
        let left = try #require(live.realTimeUntil(live.now.advanced(by: .seconds(10))))
        #expect(left > .seconds(9) && left <= .seconds(10))
    }
}
