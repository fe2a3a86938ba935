import RunWalkCore
import Testing

@Suite("Heart-rate variability (RMSSD of RR intervals)")
struct HeartRateVariabilityTests {
    /// One sample a second, each with the intervals `intervals(second)`.
    static func samples(_ seconds: Range<Int>, _ intervals: (Int) -> [Double]) -> [HeartRateSample] {
        seconds.map { HeartRateSample(seconds: Double($0), bpm: 120, rrIntervalsSeconds: intervals($0)) }
    }

    @Test("alternating 500 and 520 ms: every successive difference is 20 ms, so RMSSD is 20 ms")
    func alternating() throws {
        let series = Self.samples(0..<40) { _ in [0.5, 0.52] }
        let hrv = try #require(HeartRateVariability(samples: series))
        #expect(abs(hrv.rmssdMilliseconds - 20) < 1e-9)
        #expect(hrv.intervals == 80 && hrv.differences == 79 && hrv.artefacts == 0)
    }

    @Test("a missed beat (one interval twice as long) is an artefact: left out, and not compared with")
    func missedBeat() throws {
        var series = Self.samples(0..<40) { s in [s % 2 == 0 ? 0.5 : 0.52] }
        series[20].rrIntervalsSeconds = [1.02]
        let hrv = try #require(HeartRateVariability(samples: series))
        #expect(abs(hrv.rmssdMilliseconds - 20) < 1e-9, "the 500 ms jump must not count: \(hrv.rmssdMilliseconds)")
        #expect(hrv.artefacts == 1 && hrv.differences == 37)
    }

    @Test("samples more than 2.5 s apart do not continue each other's intervals")
    func gapBreaksTheRun() throws {
        // Two stretches at different steady rates: 600 ms, then after a 10 s silence 400 ms.
        let first = Self.samples(0..<20) { _ in [0.6, 0.6] }
        let second = Self.samples(30..<50) { _ in [0.4, 0.4, 0.4] }
        let hrv = try #require(HeartRateVariability(samples: first + second))
        #expect(hrv.rmssdMilliseconds == 0, "the 200 ms step across the gap counted: \(hrv.rmssdMilliseconds)")
        #expect(hrv.differences == 39 + 59)
    }

    @Test("too few clean differences, or no RR intervals at all, give no figure; a window limits it")
    func notEnough() {
        #expect(HeartRateVariability(samples: Self.samples(0..<10) { _ in [0.5, 0.51] }) == nil)
        #expect(HeartRateVariability(samples: Self.samples(0..<100) { _ in [] }) == nil)
        let long = Self.samples(0..<100) { _ in [0.5, 0.51] }
        #expect(HeartRateVariability(samples: long, from: 0, to: 10) == nil)
        #expect(HeartRateVariability(samples: long, from: 0, to: 50)?.intervals == 102)
    }
}
