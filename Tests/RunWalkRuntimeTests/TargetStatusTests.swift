import Foundation
import RunWalkCore
import RunWalkRuntime
import Testing

/// Issue 33: the band and where the runner is in it, in the status; coaching through the driver.
@Suite("SessionDriver targets")
struct TargetStatusTests {
    @Test("status: target and target_state follow the filtered pace; standing (auto-paused) is not coached")
    func statusAndCoaching() throws {
        let workout = try Workout(parsing: "5m run @ 6:00-6:30/km, 1m walk")
        // 3 m/s (5:33/km, faster than the band) for 90 s, stands 40 s, then 2.2 m/s (7:35/km, slower).
        let fixes = SyntheticTrack.fixes(seconds: 330) { t in
            if t < 90 { return 3 }
            return t < 130 ? 0 : 2.2
        }
        var driver = SessionDriver(workout: workout, settings: .init(start: .now, clock: .track, autoPause: true))
        var states: [Int: SessionStatus] = [:]
        for (i, fix) in fixes.enumerated() {
            _ = driver.handle(.fix(fix), now: .zero)
            if [60, 120, 250].contains(i) { states[i] = driver.status(at: .zero) }
        }
        let fast = try #require(states[60]), standing = try #require(states[120]), slow = try #require(states[250])
        #expect(fast.target?.text == "6:00-6:30/km")
        #expect(fast.targetState == .above)
        #expect(standing.paused && standing.targetState == nil, "auto-paused: no state")
        #expect(slow.targetState == .below)
        let json = String(decoding: try JSONEncoder().encode(fast), as: UTF8.self)
        #expect(json.contains("\"target_state\":\"above\""))
        #expect(json.contains("\"target\":{"))

        let coaching = driver.summary().cues.filter { $0.kind == .target }
        let slowDown = coaching.filter { $0.text.hasPrefix("Slow down") }.map(\.atSeconds)
        let speedUp = coaching.filter { $0.text.hasPrefix("Speed up") }.map(\.atSeconds)
        #expect(slowDown.first.map { $0 >= 20 && $0 < 40 } == true, "\(coaching)")
        #expect(!speedUp.isEmpty, "\(coaching)")
        let pause = try #require(driver.summary().events?.first { $0.kind == .autoPause })
        let resume = try #require(driver.summary().events?.first { $0.kind == .autoResume })
        // Nothing said while standing; the first "Speed up" only a grace period after moving on slowly.
        #expect(!coaching.contains { $0.atSeconds > pause.atSeconds && $0.atSeconds < resume.atSeconds }, "\(coaching)")
        #expect(speedUp.allSatisfy { $0 >= resume.atSeconds + 20 }, "\(speedUp), resumed at \(resume.atSeconds)")
        for (a, b) in zip(speedUp, speedUp.dropFirst()) { #expect(b - a >= 30) }
    }
}
