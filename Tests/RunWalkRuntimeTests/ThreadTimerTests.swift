import Foundation
@testable import RunWalkRuntime
import Synchronization
import Testing

/// The live clock's timer thread (real time: these wait for ticks, they never sleep to time them).
@Suite("ThreadTimer")
struct ThreadTimerTests {
    /// What the timer's thread saw at each tick.
    final class Ticks: @unchecked Sendable {
        struct Tick { var generation: Int; var at: ContinuousClock.Instant; var wakeUps: Int?; var thread: pthread_t }
        private let lock = NSLock()
        private var all: [Tick] = []
        private var waiting: (count: Int, continuation: CheckedContinuation<Void, Never>)?

        func add(_ tick: Tick) {
            let resume: CheckedContinuation<Void, Never>? = lock.withLock {
                all.append(tick)
                guard let waiting, all.count >= waiting.count else { return nil }
                self.waiting = nil
                return waiting.continuation
            }
            resume?.resume()
        }

        var list: [Tick] { lock.withLock { all } }

        /// Returns once `count` ticks came.
        func wait(for count: Int) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now: Bool = lock.withLock {
                    if all.count >= count { return true }
                    waiting = (count, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// The calling thread's voluntary context switches (its wake-ups), from /proc.
    static func threadWakeUps() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
            return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    @Test("a tick comes at its deadline, never before, on the timer's own thread", .timeLimit(.minutes(1)))
    func firesAtDeadline() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let ticks = Ticks()
        let timer = ThreadTimer(clock: clock, start: start, scale: 1) { generation in
            ticks.add(.init(generation: generation, at: clock.now, wakeUps: nil, thread: pthread_self()))
        }
        defer { timer.cancel() }
        let target = start.duration(to: clock.now) + .milliseconds(30)
        timer.schedule(target)
        await ticks.wait(for: 1)
        let tick = try #require(ticks.list.first)
        #expect(tick.at >= start.advanced(by: target), "fired \(start.advanced(by: target).duration(to: tick.at)) after the deadline")
        #expect(pthread_equal(tick.thread, pthread_self()) == 0)
        #expect(timer.isCurrent(tick.generation))
    }

    @Test("the same deadline asked again keeps the pending tick; another one replaces it", .timeLimit(.minutes(1)))
    func replacesOnlyChangedDeadlines() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let ticks = Ticks()
        let timer = ThreadTimer(clock: clock, start: start, scale: 1) { generation in
            ticks.add(.init(generation: generation, at: clock.now, wakeUps: nil, thread: pthread_self()))
        }
        defer { timer.cancel() }
        let first = start.duration(to: clock.now) + .seconds(60)
        timer.schedule(first)
        // Recomputed from another `now`: off in its last bits, within the tolerance.
        timer.schedule(first + .nanoseconds(300))
        // An earlier deadline wakes the sleeping thread and replaces the later one.
        let soon = start.duration(to: clock.now) + .milliseconds(20)
        timer.schedule(soon)
        await ticks.wait(for: 1)
        let list = ticks.list
        #expect(list.count == 1)
        let tick = try #require(list.first)
        #expect(tick.generation == 2, "the kept deadline made no new generation; the earlier one did")
        #expect(tick.at >= start.advanced(by: soon))
        #expect(!timer.isCurrent(1))
    }

    @Test("ticks asked for from inside a tick (as the loop does) cost the thread one wake-up each", .timeLimit(.minutes(1)))
    func oneWakeUpPerTick() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let ticks = Ticks()
        let count = 20
        let box = Mutex<ThreadTimer<ContinuousClock>?>(nil)
        let timer = ThreadTimer(clock: clock, start: start, scale: 1) { generation in
            ticks.add(.init(generation: generation, at: clock.now, wakeUps: Self.threadWakeUps(), thread: pthread_self()))
            // The next deadline 5 ms on, scheduled on the timer's thread as the loop's tick does.
            box.withLock { $0 }?.schedule(start.duration(to: clock.now) + .milliseconds(5))
        }
        box.withLock { $0 = timer }
        defer { timer.cancel() }
        timer.schedule(start.duration(to: clock.now) + .milliseconds(5))
        await ticks.wait(for: count)
        let list = ticks.list
        let first = try #require(list.first?.wakeUps)
        let last = try #require(list[count - 1].wakeUps)
        // One sleep in poll(2) per tick; a little slack for the rare lock wait.
        #expect(last - first <= count - 1 + 3, "\(last - first) wake-ups for \(count - 1) ticks")
        #expect(last - first >= count - 1, "each tick was slept for")
    }
}
