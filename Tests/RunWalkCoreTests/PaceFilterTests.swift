import Testing
@testable import RunWalkCore

@Suite("PaceFilter")
struct PaceFilterTests {
    /// Feeds `seconds` of a speed with white noise `sigma` per sample at `rateHz`, starting at
    /// `start` seconds; returns the estimates after each sample, and calls `each` after it.
    @discardableResult
    static func feed(_ filter: inout PaceFilter, speed: Double, sigma: Double, seconds: Double, rateHz: Int,
                     start: Double = 0, seed: UInt64 = 1, each: (PaceFilter) -> Void = { _ in }) -> [Double] {
        var random = SeededGenerator(seed: seed)
        var estimates: [Double] = []
        let samples = Int(seconds * Double(rateHz))
        for k in 0..<samples {
            let ms = Int64(((start + Double(k) / Double(rateHz)) * 1000).rounded())
            filter.add(speedMetresPerSecond: max(0, speed + sigma * random.gaussian()), at: .milliseconds(ms), measured: true)
            estimates.append(filter.speedMetresPerSecond ?? 0)
            each(filter)
        }
        return estimates
    }

    /// The mean of `value` over the samples after the first two minutes of ten at `rateHz`.
    static func settledMean(speed: Double, sigma: Double, rateHz: Int, _ value: (PaceFilter) -> Double?) -> Double {
        var filter = PaceFilter(timeConstantSeconds: 5)
        var sum = 0.0, count = 0.0, k = 0
        feed(&filter, speed: speed, sigma: sigma, seconds: 600, rateHz: rateHz) { f in
            k += 1
            if k > 120 * rateHz, let v = value(f) { sum += v; count += 1 }
        }
        return count > 0 ? sum / count : .nan
    }

    @Test("the noise density σ²·dt is measured from the samples, at 1 Hz and 10 Hz",
          arguments: [(1, 0.15), (10, 0.10), (10, 0.30)])
    func noiseDensity(rateHz: Int, sigma: Double) {
        // Averaged over 30 s, one estimate at 1 Hz scatters by about ±25 %: compare the mean.
        let density = Self.settledMean(speed: 3, sigma: sigma, rateHz: rateHz) { $0.noiseDensity }
        let expected = sigma * sigma / Double(rateHz)
        #expect(abs(density - expected) < 0.1 * expected, "\(density) m²/s, expected \(expected)")
    }

    @Test("the time constant follows the noise density, not the sample rate",
          arguments: [(1, 0.12, 5.0), (10, 0.12, 5.0 / 10.0.squareRoot()), (10, 0.12 * 10.0.squareRoot(), 5.0)])
    func timeConstant(rateHz: Int, sigma: Double, expectedSeconds: Double) {
        // 0.12 m/s at 3 m/s and 1 Hz is the reference noise (4 % per 1 s sample): τ itself.
        let tau = Self.settledMean(speed: 3, sigma: sigma, rateHz: rateHz) { $0.effectiveTimeConstantSeconds }
        #expect(abs(tau - expectedSeconds) < 0.1 * expectedSeconds, "τ_eff \(tau) s")
    }

    @Test("very noisy speed is averaged for at most twice the time constant")
    func longest() throws {
        var filter = PaceFilter(timeConstantSeconds: 5)
        Self.feed(&filter, speed: 1.4, sigma: 0.4, seconds: 600, rateHz: 1)
        #expect(try #require(filter.effectiveTimeConstantSeconds) == 10)
    }

    @Test("steady noisy speed: 95 % of the estimates within 3 %", arguments: [(1, 0.15), (10, 0.15)])
    func steady(rateHz: Int, sigma: Double) {
        var filter = PaceFilter(timeConstantSeconds: 5)
        let estimates = Self.feed(&filter, speed: 3, sigma: sigma, seconds: 900, rateHz: rateHz).dropFirst(60 * rateHz)
        let within = estimates.filter { abs($0 - 3) <= 0.03 * 3 }.count
        #expect(Double(within) >= 0.95 * Double(estimates.count), "\(within) of \(estimates.count)")
    }

    @Test("after walk → run it reaches 90 % of the new speed within two time constants, without overshoot",
          arguments: [1, 10])
    func walkToRun(rateHz: Int) throws {
        // Noisy walking (the same noise density at both rates) makes the time constant the
        // longest, 10 s; the change is still followed with τ/3.
        let sigma = 0.15 * Double(rateHz).squareRoot()
        var filter = PaceFilter(timeConstantSeconds: 5)
        Self.feed(&filter, speed: 1.4, sigma: sigma, seconds: 300, rateHz: rateHz)
        #expect(try #require(filter.effectiveTimeConstantSeconds) == 10)
        let run = Self.feed(&filter, speed: 3.3, sigma: sigma, seconds: 30, rateHz: rateHz, start: 300, seed: 2)
        #expect(run[10 * rateHz - 1] >= 0.9 * 3.3, "\(run[10 * rateHz - 1]) m/s after 2τ")
        #expect(try #require(run.max()) <= 1.05 * 3.3, "highest \(run.max() ?? 0) m/s")
    }

    @Test("without Doppler it is exactly the PaceEMA")
    func unmeasured() {
        var filter = PaceFilter(timeConstantSeconds: 5)
        var ema = PaceEMA(timeConstantSeconds: 5)
        var random = SeededGenerator(seed: 3)
        for k in 0..<300 {
            let speed = (k < 150 ? 1.4 : 3.2) + 0.3 * random.gaussian()
            filter.add(speedMetresPerSecond: speed, at: .seconds(k), measured: false)
            ema.add(speedMetresPerSecond: speed, at: .seconds(k))
            #expect(filter.speedMetresPerSecond == ema.speedMetresPerSecond)
        }
        #expect(filter.noiseDensity == nil)
    }

    @Test("pace is seconds per kilometre, and nil while (nearly) standing")
    func pace() {
        var filter = PaceFilter()
        #expect(filter.paceSecondsPerKm == nil)
        filter.add(speedMetresPerSecond: 4, at: .zero, measured: true)
        #expect(filter.paceSecondsPerKm == 250)
        var still = PaceFilter()
        still.add(speedMetresPerSecond: 0.1, at: .zero, measured: true)
        #expect(still.paceSecondsPerKm == nil)
    }
}
