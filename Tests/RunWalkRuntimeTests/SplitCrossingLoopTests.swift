import Foundation
import RunWalkCore
@testable import RunWalkRuntime
import Testing

/// Issue 30, item 6: the loop wakes at the instant a split was predicted for (between two fixes)
/// and says it then, on its own timer thread, as live; a manual clock stands in for real time.
@Suite("SessionLoop: a split said at its predicted crossing")
struct SplitCrossingLoopTests {
    /// Events as the hooks received them, with the manual clock's reading then.
    final class Heard: @unchecked Sendable {
        private let lock = Lock()
        private var list: [(event: SessionEvent, clock: Duration)] = []
        let clock: ManualClock
        init(clock: ManualClock) { self.clock = clock }
        func add(_ event: SessionEvent) {
            let now = clock.now.offset
            lock.withLock { list.append((event, now)) }
        }
        var all: [(event: SessionEvent, clock: Duration)] { lock.withLock { list } }
        var telemetry: [(clock: Double, update: TelemetryUpdate)] {
            all.compactMap { if case .telemetry(let update, let at) = $0.event { return (at, update) } else { return nil } }
        }
        var splits: [(split: Split, clock: Duration)] {
            all.compactMap { if case .split(let split) = $0.event { return (split, $0.clock) } else { return nil } }
        }
        var splitCues: [Cue] {
            all.compactMap { if case .cue(let cue) = $0.event, cue.kind == .split { return cue } else { return nil } }
        }
    }

    /// Sends the fixes one a second (`tick(second)` moves the clock first) until the live distance
    /// is within one fix interval of the kilometre; the instant the split is due then, seconds.
    static func feedUntilSplitDue(_ fixes: [Fix], source: ScriptedSource, heard: Heard,
                                  tick: (Int) -> Void) async throws -> Double {
        for (second, fix) in fixes.enumerated() {
            tick(second)
            source.send(.fix(fix))
            let processed = await eventually { heard.telemetry.count == second + 1 }
            try #require(processed, "fix \(second) reached the session")
            let (at, update) = try #require(heard.telemetry.last)
            let v = update.speedMetresPerSecond ?? 0
            let ahead = (1000 - update.distanceMetres) / v
            if v > 0, ahead > 0, ahead < 1 { return at + ahead }
        }
        throw SplitNotDue()
    }

    struct SplitNotDue: Error, CustomStringConvertible {
        var description: String { "the live distance never came within a fix interval of the kilometre" }
    }

    @Test("after the fix before the kilometre, the loop wakes at the predicted instant and says the split then")
    func wakesAtPredictedInstant() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        let control = SessionControl()
        let heard = Heard(clock: clock)
        // 4.5 m/s: the kilometre falls between two fixes about 222 s in.
        let fixes = SyntheticTrack.fixes(seconds: 260) { _ in 4.5 }
        let loop = SessionLoop(workout: try Workout(parsing: "10m run"), settings: .init(start: .now, clock: .session(scale: 1)))
        let task = Task { await loop.run(source: source, clock: clock, control: control, hooks: .init(onEvent: { heard.add($0) })) }
        #expect(await eventually { control.status?.stage == .running && clock.sleeperCount > 0 })
        let instant = try await Self.feedUntilSplitDue(fixes, source: source, heard: heard) { second in
            if second > 0 { clock.advance(by: .seconds(1)) }
        }
        #expect(heard.splits.isEmpty)
        // Just before the instant: nothing yet.
        let before = Duration.seconds(double: instant) - .milliseconds(2) - clock.now.offset
        clock.advance(by: before)
        #expect(await eventually { clock.sleeperCount > 0 })
        #expect(heard.splits.isEmpty, "said early, at \(clock.now.offset)")
        // At the instant (the timer asks for a microsecond past it; a few more cover the rounding
        // of the test's own sum), with no fix: the loop wakes and says it.
        clock.advance(by: .milliseconds(2) + .microseconds(5))
        let said = await eventually { !heard.splits.isEmpty && !heard.splitCues.isEmpty }
        #expect(said, "the split was not said at its predicted instant \(instant) s (clock \(clock.now.offset))")
        if let first = heard.splits.first {
            #expect(first.split.index == 1)
            #expect(abs(first.split.elapsedSeconds - instant) < 1e-6, "split time \(first.split.elapsedSeconds), due \(instant)")
            #expect(first.clock - .seconds(double: instant) < .milliseconds(1), "said at \(first.clock)")
        }
        if let cue = heard.splitCues.first {
            #expect(abs(cue.atSeconds - instant) < 1e-6, "cue at \(cue.atSeconds), due \(instant)")
            #expect(cue.text.hasPrefix("Kilometre 1"), "\(cue.text)")
        }
        // The next fix completes nothing more.
        let nextSecond = heard.telemetry.count
        clock.advance(by: .seconds(double: Double(nextSecond)) - clock.now.offset)
        source.send(.fix(fixes[nextSecond]))
        #expect(await eventually { heard.telemetry.count == nextSecond + 1 })
        #expect(heard.splits.count == 1)
        control.send(.stop)
        let result = await task.value
        source.end()
        #expect(result.summary.splits.count == 1)
        #expect(abs((result.summary.splits.first?.elapsedSeconds ?? 0) - instant) <= 0.0005, "the summary keeps milliseconds")
    }

    @Test("a replay on the track's clock says the predicted split before the fix after it, at its instant")
    func trackClockSaysItBeforeTheNextFix() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        let heard = Heard(clock: clock)
        let fixes = SyntheticTrack.fixes(seconds: 260) { _ in 4.5 }
        let loop = SessionLoop(workout: try Workout(parsing: "4m run"), settings: .init(start: .now, clock: .track))
        let task = Task { await loop.run(source: source, clock: clock, hooks: .init(onEvent: { heard.add($0) })) }
        for fix in fixes { source.send(.fix(fix)) }
        source.end()
        _ = await task.value
        let all = heard.all.map(\.event)
        let index = try #require(all.firstIndex { if case .split = $0 { return true } else { return false } })
        guard case .split(let split) = all[index] else { return }
        let before = all[..<index].compactMap { if case .telemetry(let u, let at) = $0 { return (at, u) } else { return nil } }.last
        let after = all[index...].compactMap { if case .telemetry(_, let at) = $0 { return at } else { return nil } }.first
        let (at, update) = try #require(before)
        let v = try #require(update.speedMetresPerSecond)
        #expect(abs(split.elapsedSeconds - (at + (1000 - update.distanceMetres) / v)) < 1e-9)
        #expect(split.elapsedSeconds < (after ?? .infinity), "said before the fix after it")
    }

    @Test("a paced replay (the track's clock, fed at a pace) wakes on its timer at the predicted instant too")
    func pacedTrackWakes() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        let heard = Heard(clock: clock)
        let fixes = SyntheticTrack.fixes(seconds: 260) { _ in 4.5 }
        var settings = SessionDriver.Settings(start: .now, clock: .track)
        settings.trackPace = 1
        let loop = SessionLoop(workout: try Workout(parsing: "10m run"), settings: settings)
        let task = Task { await loop.run(source: source, clock: clock, hooks: .init(onEvent: { heard.add($0) })) }
        let instant = try await Self.feedUntilSplitDue(fixes, source: source, heard: heard) { second in
            // The track's clock is its fixes' time; the manual clock stands for the pace's real time.
            clock.advance(by: .seconds(double: Double(second)) - clock.now.offset)
        }
        clock.advance(by: .seconds(double: instant) - .milliseconds(2) - clock.now.offset)
        #expect(await eventually { clock.sleeperCount > 0 })
        #expect(heard.splits.isEmpty, "said early")
        clock.advance(by: .milliseconds(2) + .microseconds(5))
        #expect(await eventually { !heard.splits.isEmpty }, "the paced replay's timer did not say the split at \(instant) s")
        #expect(abs((heard.splits.first?.split.elapsedSeconds ?? 0) - instant) < 1e-6)
        source.end()
        let result = await task.value
        #expect(result.summary.splits.count == 1)
    }
}
