import Foundation
import RunWalkCore
import RunWalkRuntime
import Synchronization
import Testing

/// A source that hands out its fixes as fast as they are asked for, counting how many were taken.
private final class CountingSource: LocationSource, @unchecked Sendable {
    let description = "counting source"
    let fixes: [Fix]
    let taken = Mutex(0)

    init(fixes: [Fix]) { self.fixes = fixes }

    func events() -> AsyncStream<LocationEvent> {
        AsyncStream(unfolding: { [self] in
            let index = taken.withLock { count -> Int in
                count += 1
                return count - 1
            }
            if index < fixes.count { return .fix(fixes[index]) }
            return index == fixes.count ? .ended : nil
        })
    }
}

@Suite("SessionLoop back-pressure on a source read through events()")
struct SourceBackPressureTests {
    @Test("a source far faster than the loop is read no further ahead than the event being handled",
          .timeLimit(.minutes(1)))
    func boundedReadAhead() async throws {
        let source = CountingSource(fixes: SyntheticTrack.fixes(seconds: 5_000, speed: { _ in 3 }))
        let handled = Mutex(0)
        let worstLead = Mutex(0)
        let loop = SessionLoop(workout: try Workout(parsing: "90m run"),
                               settings: SessionDriver.Settings(start: .now, clock: .track))
        let hooks = SessionLoop.Hooks(onEvent: { event in
            guard case .telemetry = event else { return }
            let done = handled.withLock { count -> Int in
                count += 1
                return count
            }
            let lead = source.taken.withLock { $0 } - done
            worstLead.withLock { $0 = max($0, lead) }
        })
        let result = await loop.run(source: source, clock: ContinuousClock(), hooks: hooks)
        #expect(result.summary.fixes.epochs == 5_001)
        #expect(handled.withLock { $0 } == 5_001)
        // Each event is handled before the next is taken: nothing queues between the source and
        // the driver (a 5-hour track would otherwise wait whole in memory).
        #expect(worstLead.withLock { $0 } <= 1, "the reader ran \(worstLead.withLock { $0 }) events ahead")
    }
}
