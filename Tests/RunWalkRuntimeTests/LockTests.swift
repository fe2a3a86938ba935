import Foundation
import RunWalkRuntime
import Testing

/// The Foundation-free lock, condition and named thread the adapters run on.
@Suite("Lock, Condition, NamedThread")
struct LockTests {
    @Test("a named thread runs its body under its name for the kernel")
    func namedThread() throws {
        let done = DispatchSemaphore(value: 0)
        let seen = Lock()
        nonisolated(unsafe) var comm = ""
        let started = NamedThread.start(name: "runwalk-test-thread-long") {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            seen.withLock { comm = name }
            done.signal()
        }
        try #require(started)
        #expect(done.wait(timeout: .now() + 10) == .success, "the thread ran")
        // The kernel keeps 15 bytes.
        #expect(seen.withLock { comm } == "runwalk-test-th\n")
    }

    @Test("a lock keeps two threads' increments apart")
    func lockCounts() {
        let lock = Lock()
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var count = 0
        for _ in 0..<4 {
            NamedThread.start(name: "runwalk-lock") {
                for _ in 0..<10_000 { lock.withLock { count += 1 } }
                done.signal()
            }
        }
        for _ in 0..<4 { done.wait() }
        #expect(lock.withLock { count } == 40_000)
    }

    @Test("a condition's wait ends on a signal, or at its timeout")
    func condition() {
        let condition = Condition()
        condition.lock()
        #expect(condition.wait(seconds: 0.01) == false, "nobody signalled: timed out")
        condition.unlock()

        nonisolated(unsafe) var ready = false
        NamedThread.start(name: "runwalk-signal") {
            condition.lock()
            ready = true
            condition.signal()
            condition.unlock()
        }
        condition.lock()
        // A generous timeout: the signal, not the clock, ends the wait.
        while !ready { condition.wait(seconds: 30) }
        condition.unlock()
        #expect(ready)
    }

    @Test("a broadcast wakes every thread waiting without a timeout")
    func broadcast() {
        let condition = Condition()
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var waiting = 0
        nonisolated(unsafe) var go = false
        for _ in 0..<3 {
            NamedThread.start(name: "runwalk-waiter") {
                condition.withLock {
                    waiting += 1
                    // Broadcast, not signal: one signal could wake another waiter, not the test.
                    condition.broadcast()
                    while !go { condition.wait() }
                }
                done.signal()
            }
        }
        condition.withLock {
            // Each waiter says when it is in; these waits have no timeout, as theirs.
            while waiting < 3 { condition.wait() }
            go = true
            condition.broadcast()
        }
        var woken = 0
        for _ in 0..<3 where done.wait(timeout: .now() + 30) == .success { woken += 1 }
        #expect(woken == 3, "one broadcast, every waiter woken")
    }
}
