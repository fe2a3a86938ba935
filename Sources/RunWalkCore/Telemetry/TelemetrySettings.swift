/// Settings of the distance and pace estimation; the defaults hold from 1 Hz to 10 Hz.
public struct TelemetrySettings: Sendable, Equatable {
    /// Time constant of the live pace, seconds: exactly that without Doppler; with Doppler
    /// it is the time constant at a speed noise of `paceReferenceNoiseFraction` of the speed
    /// per 1 s sample, scaled by the measured noise (σ/v)·√dt over that, at most twice it
    /// (see `PaceFilter`). A detected change of pace is followed with a third of it.
    public var paceTimeConstantSeconds: Double = 5
    /// Speed noise (fraction of the speed per 1 s sample) at which the pace's time constant
    /// is `paceTimeConstantSeconds`.
    public var paceReferenceNoiseFraction: Double = 0.04
    /// Doppler speeds above this are discarded as nonsense, metres per second.
    public var maximumSpeed: Double = 12
    /// User-equivalent range error, metres: HDOP × this is the position sigma when the
    /// receiver gives no GST error estimate.
    public var userRangeErrorMetres: Double = 3
    /// Position sigma when the receiver gives neither GST nor HDOP, metres.
    public var defaultPositionSigmaMetres: Double = 5
    /// White-acceleration spectral density of the constant-velocity model, m²/s³.
    public var accelerationSpectralDensity: Double = 0.6
    /// Receiver position errors are correlated over about this long, seconds; a fix's
    /// variance is inflated by this over the fix interval so 10 Hz fixes do not count ten
    /// times as much as 1 Hz fixes.
    public var positionCorrelationSeconds: Double = 4
    /// Standard deviation of a Doppler speed, metres per second.
    public var dopplerSpeedSigma: Double = 0.15
    /// A Doppler speed this far (m/s) from the filtered speed waits for the next fix to tell a
    /// one-fix spike from a change of pace (`DopplerSpikeGuard`); infinity applies every one at once.
    public var dopplerLeapMetresPerSecond: Double = 1.2
    /// Course sigma added to the speed-dependent part, degrees.
    public var courseSigmaFloorDegrees: Double = 2
    /// Chi-square gate of a position innovation (2 degrees of freedom); 11.8 ≈ 99.73 %.
    public var positionGateChiSquare: Double = 11.8
    /// After this many consecutive gated fixes that agree with each other, the filter
    /// trusts them again (it was the filter that was wrong).
    public var relockAfterRejections: Int = 5
    /// Below this speed the receiver is taken to stand still, metres per second.
    public var stationarySpeed: Double = 0.45
    /// Above this speed a standing receiver is taken to move again, metres per second.
    public var movingSpeed: Double = 0.6
    /// Without Doppler, the filtered speed thresholds for standing and moving, m/s.
    public var stationarySpeedWithoutDoppler: Double = 0.5
    public var movingSpeedWithoutDoppler: Double = 0.8
    /// Without Doppler, the receiver also stands when its filtered position moved less than
    /// `standingRadiusMetresWithoutDoppler` over this many seconds (and the filtered speed is
    /// under `standingWindowMaximumSpeed`): the wandering position error keeps the filtered speed
    /// above `stationarySpeedWithoutDoppler` at a traffic light. Found so, the distance integrated
    /// over the last `standingLookbackSecondsWithoutDoppler` beyond the straight line is taken back
    /// (the filter's lag overshoots the stop). It moves again on the speed, and only once the
    /// position moved more than `movingRadiusMetresWithoutDoppler` over the window.
    public var standingWindowSecondsWithoutDoppler: Double = 15
    public var standingRadiusMetresWithoutDoppler: Double = 6
    public var standingLookbackSecondsWithoutDoppler: Double = 20
    public var movingRadiusMetresWithoutDoppler: Double = 10
    public var standingWindowMaximumSpeed: Double = 1.2
    /// Without Doppler, the share of the distance taken from the filtered position's progress
    /// along the direction of travel rather than from the filtered speed (`Telemetry.progress`):
    /// 0 integrates the speed alone, which lags every change of speed by seconds.
    public var positionProgressWithoutDoppler: Double = 1
    /// Without Doppler, a fix that moved this much (metres) more than the filter's velocity and a
    /// runner's acceleration explain is held back, and when the next fix keeps its offset it was a
    /// step of the receiver's position, not motion: the filter is shifted by it and the distance
    /// does not count it (`PositionStepGuard`). Infinity switches it off (notes/issue-30.md,
    /// "position steps"): GGA-only urban canyon +9.0 % → +0.03 % mean; the city grid's outliers,
    /// no longer counted as motion, leave its corner shortfall (RMS 0.71 → 0.78 %).
    public var positionStepMetresWithoutDoppler: Double = 6
    /// A larger jump is an outlier or a lost lock, not a bias's step (reflections off a street's
    /// facades put the fix tens of metres off), and is left to the gate, metres.
    public var positionStepMaximumMetresWithoutDoppler: Double = 60
    /// A longer interval between used fixes is a gap, seconds.
    public var gapSeconds: Double = 2.5
    /// With Doppler, the offline smoother models the receiver's position error as what it is, a
    /// slowly wandering bias (Gauss–Markov) plus a little white jitter (`PositionBiasSmoother`);
    /// off, positions are white with the variance inflated by `positionCorrelationSeconds`.
    public var smootherModelsPositionBias = false
    /// Correlation time of that bias, seconds (receivers: typically 30–100 s).
    public var positionBiasCorrelationSeconds: Double = 60
    /// The share of a fix's reported variance that is the bias; the rest is white jitter.
    public var positionBiasVarianceFraction: Double = 0.9
    /// The bias smoother takes the white jitter as independent only this far apart, seconds
    /// (receivers filter their output; 10 fixes a second are not 10 independent ones).
    public var positionWhiteCorrelationSeconds: Double = 1
    /// Keep the filter history so the summary can report an RTS-smoothed distance.
    public var keepsSmootherHistory: Bool = true

    public init() {}
}
