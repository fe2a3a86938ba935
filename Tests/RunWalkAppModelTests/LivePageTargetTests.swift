import RunWalkAppModel
import RunWalkCore
import RunWalkRuntime
import Testing

/// Issue 33: the band and its gauge on the live page.
@Suite struct LivePageTargetTests {
    static func running(pace: Double?, state: TargetState?) -> SessionStatus {
        var status = LivePageModelTests.running()
        status.target = PhaseTargetBand(.pace(fastestSecondsPerKm: 360, slowestSecondsPerKm: 390, unit: .km))
        status.currentPaceSecondsPerKm = pace
        status.targetState = state
        return status
    }

    @Test func theGaugePlacesThePaceAgainstTheBand() {
        let inBand = LivePageModel(Self.running(pace: 375, state: .in))
        #expect(inBand.target == "Target 6:00-6:30/km · in")
        #expect(inBand.targetGauge == 0.5)
        let slow = LivePageModel(Self.running(pace: 420, state: .below))
        #expect(slow.target == "Target 6:00-6:30/km · below (slower)")
        #expect(slow.targetGauge == 0)
        let fast = LivePageModel(Self.running(pace: 345, state: .above))
        #expect(fast.target == "Target 6:00-6:30/km · above (faster)")
        #expect(fast.targetGauge.map { $0 > 2.0 / 3 } == true)
        let standing = LivePageModel(Self.running(pace: nil, state: nil))
        #expect(standing.target == "Target 6:00-6:30/km · –")
        #expect(standing.targetGauge == nil)
        #expect(LivePageModel(LivePageModelTests.running()).target == nil)
    }

    @Test func theGaugePlacesTheHeartRateAgainstItsBand() {
        var status = LivePageModelTests.running()
        status.target = PhaseTargetBand(.heartRate(low: 140, high: 150))
        status.heartRateBPM = 145
        status.targetState = .in
        let inBand = LivePageModel(status)
        #expect(inBand.target == "Target hr 140-150 · in")
        #expect(inBand.targetGauge == 0.5)
        status.heartRateBPM = 158
        status.targetState = .above
        let high = LivePageModel(status)
        #expect(high.target == "Target hr 140-150 · above")
        #expect(high.targetGauge.map { $0 > 2.0 / 3 && $0 < 1 } == true, "\(String(describing: high.targetGauge))")
        status.heartRateBPM = nil
        #expect(LivePageModel(status).targetGauge == 5.0 / 6, "without a value, placed by its side")
    }
}
