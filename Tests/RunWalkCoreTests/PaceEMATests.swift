import Testing
@testable import RunWalkCore

@Suite("PaceEMA")
struct PaceEMATests {
    /// The EMA's speed `seconds` after a step from `from` to `to` m/s, sampled at `rateHz`.
    static func afterStep(from: Double, to: Double, seconds: Double, rateHz: Int) -> (speed: Double, highest: Double) {
        var ema = PaceEMA(timeConstantSeconds: 6)
        ema.add(speedMetresPerSecond: from, at: .zero)
        var highest = from
        for k in 1...Int(seconds * Double(rateHz)) {
            ema.add(speedMetresPerSecond: to, at: .milliseconds(k * 1000 / rateHz))
            highest = max(highest, ema.speedMetresPerSecond ?? 0)
        }
        return (ema.speedMetresPerSecond ?? 0, highest)
    }

    @Test("one time constant after a small step it has covered 63 % of it, at any rate", arguments: [1, 2, 5, 10])
    func timeConstant(rateHz: Int) {
        #expect(abs(Self.afterStep(from: 2, to: 2.2, seconds: 6, rateHz: rateHz).speed - (2 + 0.2 * 0.632)) < 0.0005)
    }

    @Test("after walk → run it reaches 90 % of the new speed within two time constants, without overshoot",
          arguments: [1, 10])
    func walkToRun(rateHz: Int) {
        let step = Self.afterStep(from: 1.4, to: 3.3, seconds: 12, rateHz: rateHz)
        #expect(step.speed >= 0.9 * 3.3, "\(step.speed) m/s after 2τ")
        #expect(step.highest <= 3.3)
        // A plain EMA needs 1.8 τ for this step alone, and more once the runner's own 2–4 s
        // speed-up comes on top; following the change, 90 % comes within one τ.
        #expect(Self.afterStep(from: 1.4, to: 3.3, seconds: 6, rateHz: rateHz).speed >= 0.9 * 3.3)
    }

    @Test("noise that changes sides does not count as a change of pace")
    func noiseIsNotAChange() {
        var ema = PaceEMA(timeConstantSeconds: 6)
        for k in 0..<600 {
            ema.add(speedMetresPerSecond: 3 + (k % 2 == 0 ? 0.7 : -0.7), at: .seconds(k))
            #expect(!ema.following)
        }
        #expect(abs((ema.speedMetresPerSecond ?? 0) - 3) < 0.1)
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
        ema.add(speedMetresPerSecond: 2.2, at: .seconds(60))
        #expect(abs((ema.speedMetresPerSecond ?? 0) - 2.2) < 0.001)
    }
}
