#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Live pace: a scalar Kalman filter of speed whose time constant follows the measured
/// speed noise, with the configured time constant as its reference.
///
/// In steady state a random-walk speed filter is an EMA with the time constant
/// τ_eff = √(N / (q·v²)), where N = σ²·dt is the speed noise density (m²/s; the same for a
/// receiver at 1 Hz and at 10 Hz with the same physical noise) and q·v² the runner's own
/// speed variability. q is chosen so that τ_eff equals `timeConstantSeconds` (τ) when the
/// noise is `referenceNoiseFraction` of the speed per 1 s sample, so
/// τ_eff = τ · (σ/v)·√(dt / 1 s) / referenceNoiseFraction, at most `longestTimeConstantFactor`·τ:
/// noisier speed is averaged for longer, a 10 Hz receiver or a faster runner (smaller σ/v)
/// for less. N is estimated online from successive measured speeds (half the mean squared
/// difference), starting from `initialSpeedSigma` per sample.
/// A change of pace is followed as `PaceEMA` follows one: when the input stays far from the
/// estimate on one side for `PaceChangeDetector.holdSeconds`, the gain is at least that of an EMA with
/// τ/3, so a walk → run step is followed in the same time whatever τ_eff was.
/// Speeds that are not measurements (no Doppler: the position filter's own smoothed speed,
/// whose errors are correlated and cannot be measured from differences) are averaged
/// exactly as `PaceEMA` does, with τ.
public struct PaceFilter: Sendable {
    /// The reference time constant, seconds (the user's setting).
    public let timeConstantSeconds: Double
    /// The estimated speed, metres per second (nil before the first sample).
    public private(set) var speedMetresPerSecond: Double?
    /// Estimated speed noise density, m²/s (nil before the second measured sample).
    public private(set) var noiseDensity: Double?
    /// Speed noise, as a fraction of the speed per 1 s sample, at which the filter's time
    /// constant is `timeConstantSeconds`.
    public var referenceNoiseFraction = 0.04
    /// The time constant is at most this many times `timeConstantSeconds`.
    public var longestTimeConstantFactor = 2.0
    /// The noise density is averaged over about this long, seconds.
    public var noiseAveragingSeconds = 30.0
    /// Speeds below this are not used to estimate the noise, metres per second.
    public var movingSpeed = 0.3
    /// Tells a change of pace from noise (as `PaceEMA` does).
    public var change = PaceChangeDetector()
    private let initialSpeedSigma: Double
    /// Variance of the speed estimate, m²/s².
    private var variance = 0.0
    private var lastTime: Duration?
    /// The previous sample when it was a measured speed.
    private var lastMeasured: Double?

    /// A filter with reference time constant `timeConstantSeconds` and a prior speed noise of
    /// `initialSpeedSigma` metres per second per sample.
    public init(timeConstantSeconds: Double = 5, initialSpeedSigma: Double = 0.15) {
        self.timeConstantSeconds = timeConstantSeconds
        self.initialSpeedSigma = initialSpeedSigma
    }

    /// Whether the estimate is following a detected change of pace.
    public var following: Bool { change.following }

    /// Relative process noise, 1/s: the runner's speed wanders by √(q·t) of itself.
    private var relativeProcessDensity: Double {
        referenceNoiseFraction * referenceNoiseFraction / (timeConstantSeconds * timeConstantSeconds)
    }

    /// The steady-state time constant at the current speed and noise, seconds (nil before the
    /// noise is known).
    public var effectiveTimeConstantSeconds: Double? {
        guard let noiseDensity, let speed = speedMetresPerSecond else { return nil }
        return (noiseDensity / processDensity(speed: speed, noiseDensity: noiseDensity)).squareRoot()
    }

    /// The speed's process noise density, m²/s³: the runner's variability at `speed`, raised
    /// so that the time constant √(N / density) stays within the longest.
    private func processDensity(speed: Double, noiseDensity: Double) -> Double {
        let v = max(speed, 0.5)
        let longest = longestTimeConstantFactor * timeConstantSeconds
        return max(relativeProcessDensity * v * v, noiseDensity / (longest * longest))
    }

    /// Adds a speed sample taken at `time`; `measured` is true for a Doppler speed (white
    /// noise), false for a speed derived from positions.
    public mutating func add(speedMetresPerSecond speed: Double, at time: Duration, measured: Bool) {
        guard let current = speedMetresPerSecond, let lastTime else {
            speedMetresPerSecond = speed
            lastTime = time
            lastMeasured = measured ? speed : nil
            return
        }
        let dt = max(0, (time - lastTime).seconds)
        self.lastTime = time
        let previous = lastMeasured
        lastMeasured = measured ? speed : nil
        let difference = speed - current
        change.observe(difference, current: current, dt: dt)
        guard dt > 0 else { return }
        let followGain = 1 - exp(-dt / (timeConstantSeconds / 3))
        guard measured else {
            let gain = following ? followGain : 1 - exp(-dt / timeConstantSeconds)
            speedMetresPerSecond = current + gain * difference
            return
        }
        var density = noiseDensity ?? initialSpeedSigma * initialSpeedSigma * dt
        if let previous, previous > movingSpeed, speed > movingSpeed {
            // White noise: consecutive samples differ by 2σ² in variance; a step is clipped.
            let sample = min((speed - previous) * (speed - previous) / 2 * dt, 9 * density)
            density += (1 - exp(-dt / noiseAveragingSeconds)) * (sample - density)
        }
        noiseDensity = density
        let measurementVariance = density / dt
        if variance <= 0 { variance = measurementVariance }
        let predicted = variance + processDensity(speed: current, noiseDensity: density) * dt
        var gain = predicted / (predicted + measurementVariance)
        var prior = predicted
        if following, followGain > gain {
            gain = followGain
            prior = gain * measurementVariance / (1 - gain)
        }
        speedMetresPerSecond = current + gain * difference
        variance = (1 - gain) * prior
    }

    /// Seconds per kilometre, nil while (nearly) standing.
    public var paceSecondsPerKm: Double? { PaceChangeDetector.pace(speedMetresPerSecond) }
}
