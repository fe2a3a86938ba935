import RunWalkCore
import RunWalkRuntime
import Testing

/// Live, the fix a receiver takes at the workout's last moment reaches the loop a little after
/// it. The driver waits for it (at most an interval and a half after the fix before), so a live
/// run counts the same last stretch as a replay of the same track.
@Suite("SessionDriver: the workout's last fix")
struct SessionEndHoldTests {
    /// A 20 s run at 3 m/s, fixes once a second, each reaching the loop `latency` after it was taken.
    static func live(latency: Double, lastFixArrives: Bool, lastStampSeconds: Int = 20) throws -> (SessionDriver, [SessionEvent]) {
        let workout = try Workout(parsing: "20s run")
        var driver = SessionDriver(workout: workout, settings: .init(start: .now, clock: .session(scale: 1)))
        var events = driver.begin(now: .zero, utc: nil).events
        let fixes = SyntheticTrack.fixes(seconds: 25) { _ in 3 }
        for (second, fix) in fixes.enumerated() where second < 20 {
            events += driver.tick(now: .seconds(second)).events
            events += driver.handle(.fix(fix), now: .seconds(Double(second) + latency)).events
        }
        // The end of the workout comes on the clock before its last fix does.
        events += driver.tick(now: .seconds(20)).events
        if lastFixArrives {
            events += driver.handle(.fix(fixes[lastStampSeconds]), now: .seconds(Double(lastStampSeconds) + latency)).events
        }
        if !driver.isFinished, let next = driver.nextDeadline(now: .seconds(20) + .seconds(latency)) {
            events += driver.tick(now: next).events
        }
        return (driver, events)
    }

    static func completedAt(_ events: [SessionEvent]) -> Double? {
        events.lazy.compactMap { event -> Double? in
            if case .engine(.workoutCompleted(let at)) = event { return at.seconds }
            return nil
        }.first
    }

    @Test("the fix taken at the end and arriving 0.3 s later is counted, and the workout ends at 20 s")
    func lateLastFixCounts() throws {
        let (driver, events) = try Self.live(latency: 0.3, lastFixArrives: true)
        let summary = driver.summary()
        let finished = driver.isFinished
        #expect(finished)
        #expect(summary.state == .completed)
        #expect(summary.durationSeconds == 20)
        #expect(abs(summary.distanceMetres - 60) < 0.5, "20 steps of 3 m, got \(summary.distanceMetres) m")
        #expect(Self.completedAt(events) == 20)
    }

    @Test("with no fix after the end, the workout still completes at 20 s once the wait is over")
    func noLastFix() throws {
        let (driver, events) = try Self.live(latency: 0.3, lastFixArrives: false)
        let summary = driver.summary()
        let finished = driver.isFinished
        #expect(finished, "the wait ends by itself")
        #expect(summary.state == .completed)
        #expect(summary.durationSeconds == 20)
        #expect(abs(summary.distanceMetres - 57) < 0.5, "19 steps of 3 m, got \(summary.distanceMetres) m")
        #expect(Self.completedAt(events) == 20)
    }

    @Test("the wait is not held open past an interval and a half after the fix before")
    func holdIsBounded() throws {
        let workout = try Workout(parsing: "20s run")
        var driver = SessionDriver(workout: workout, settings: .init(start: .now, clock: .session(scale: 1)))
        _ = driver.begin(now: .zero, utc: nil)
        let fixes = SyntheticTrack.fixes(seconds: 20) { _ in 3 }
        for second in 0..<20 { _ = driver.handle(.fix(fixes[second]), now: .seconds(Double(second) + 0.3)) }
        _ = driver.tick(now: .seconds(20))
        let held = !driver.isFinished
        #expect(held, "held for the fix taken at the end")
        let next = driver.nextDeadline(now: .seconds(20))
        let deadline = try #require(next)
        #expect(deadline == .seconds(19.3) + .seconds(1.5))
        _ = driver.tick(now: deadline)
        let finished = driver.isFinished
        #expect(finished)
    }

    /// Issue 30, item 7: the wait at the end is planned from the fixes, but it was also asked of
    /// the timer throughout the last timed phase (a fix's arrival plus an interval and a half), so
    /// at 10 Hz the live clock's thread woke for every fix of a one-phase workout.
    @Test("before the workout's end, a fix does not move the next deadline (the timer is kept: no wake-up per fix)")
    func deadlineStandsBeforeTheEnd() throws {
        var driver = SessionDriver(workout: try Workout(parsing: "10m run"), settings: .init(start: .now, clock: .session(scale: 1)))
        _ = driver.begin(now: .zero, utc: nil)
        let fixes = SyntheticTrack.fixes(seconds: 30, interval: 0.1) { _ in 3 }
        var deadlines: [Duration] = []
        for (index, fix) in fixes.enumerated() where index >= 200 && index < 210 {
            // Fixes of 20.0 to 20.9 s, each 30 ms after it was taken: the next deadline is the
            // phase's next whole second (21 s), whichever fix came last.
            _ = driver.handle(.fix(fix), now: .seconds(Double(index) / 10 + 0.03))
            if let next = driver.nextDeadline(now: .seconds(Double(index) / 10 + 0.03)) { deadlines.append(next) }
        }
        // The same deadline each time (to its last bits, which the timer's tolerance absorbs).
        #expect(deadlines.count == 10)
        #expect(deadlines.allSatisfy { abs(($0 - .seconds(21)).seconds) < 1e-6 }, "deadlines \(deadlines)")
    }
}
