import Foundation
import RunWalkCore
@testable import RunWalkRuntime
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

@Suite("SessionLoop input window")
struct InputWindowTests {
    @Test("a source far faster than the loop is read at most `readAhead` events ahead of what the loop has handled",
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
        // `readAhead` waiting in the window, one in the reader's hands, one being handled.
        #expect(worstLead.withLock { $0 } <= SessionLoop.readAhead + 2, "the reader ran \(worstLead.withLock { $0 }) events ahead")
    }
}
