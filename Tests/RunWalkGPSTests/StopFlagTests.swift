import Foundation
import Synchronization
import Testing
@testable import RunWalkGPS

/// The stop flag a source's thread sleeps on: `set()` must wake a thread blocked in poll with no
/// timeout (the gpsd source no longer wakes every 250 ms to look at the flag).
@Suite("StopFlag")
struct StopFlagTests {
    @Test("set() wakes a thread waiting with no timeout on a descriptor that never becomes readable")
    func setWakesAWaiter() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let flag = StopFlag()
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<StopFlag.WaitResult?>(nil)
        let quiet = ends[0]
        Thread.detachNewThread {
            let outcome = flag.wait(readable: quiet, seconds: nil)
            result.withLock { $0 = outcome }
            done.signal()
        }
        // Not a timing assumption: the waiter must not return before the flag is set.
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut, "the waiter returned without cause")
        flag.set()
        // A safety net only: without the wake-up it would wait forever.
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(result.withLock { $0 } == .stopped)
    }

    @Test("a readable descriptor ends the wait; a timeout ends it as timed out; sleep() returns false once set")
    func readableAndTimeout() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let flag = StopFlag()
        #expect(flag.wait(readable: ends[0], seconds: 0.01) == .timedOut)
        var byte: UInt8 = 7
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(flag.wait(readable: ends[0], seconds: nil) == .readable)
        #expect(flag.sleep(seconds: 0.01))
        flag.set()
        #expect(!flag.sleep(seconds: 60))
        #expect(flag.wait(readable: ends[0], seconds: nil) == .stopped)
    }
}
