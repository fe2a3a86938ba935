import Testing
@testable import RunWalkCore

@Suite("PaceEMA")
struct PaceEMATests {
    /// The EMA's speed `seconds` after a step from 2 to 3 m/s, sampled at `rateHz`.
    static func afterStep(seconds: Double, rateHz: Int) -> Double {
        var ema = PaceEMA(timeConstantSeconds: 6)
        ema.add(speedMetresPerSecond: 2, at: .zero)
        let steps = Int(seconds * Double(rateHz))
        for k in 1...steps { ema.add(speedMetresPerSecond: 3, at: .milliseconds(k * 1000 / rateHz)) }
        return ema.speedMetresPerSecond ?? 0
    }

    @Test("one time constant after a step it has covered 63 % of it, at any rate", arguments: [1, 2, 5, 10])
    func timeConstant(rateHz: Int) {
        #expect(abs(Self.afterStep(seconds: 6, rateHz: rateHz) - (2 + 0.632)) < 0.001)
    }

    @Test("pace is seconds per kilometre, and nil while (nearly) standing")
    func pace() {
        var ema = PaceEMA(timeConstantSeconds: 6)
        #expect(ema.paceSecondsPerKm == nil)
        ema.add(speedMetresPerSecond: 4, at: .zero)
        #expect(ema.paceSecondsPerKm == 250)
        var still = PaceEMA()
        still.add(speedMetresPerSecond: 0.1, at: .zero)
        #expect(still.paceSecondsPerKm == nil)
    }

    @Test("a gap in the samples weighs the new sample by the time that passed")
    func gap() {
        var ema = PaceEMA(timeConstantSeconds: 6)
        ema.add(speedMetresPerSecond: 2, at: .zero)
        ema.add(speedMetresPerSecond: 3, at: .seconds(60))
        #expect(abs((ema.speedMetresPerSecond ?? 0) - 3) < 0.001)
    }
}
