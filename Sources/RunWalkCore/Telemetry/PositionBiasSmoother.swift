#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the receiver reported at one used fix, kept for the offline smoother.
struct FixObservation: Sendable {
    var east: Double
    var north: Double
    /// The reported (not inflated) east and north variances, metres².
    var varianceEast: Double
    var varianceNorth: Double
    /// Whether the position passed the live gate (or relocked the filter).
    var positionUsed: Bool
    /// Whether the live filter relocked on this fix (its position jumped to the fix).
    var relocked: Bool
    /// Doppler speed, metres per second, and course, radians clockwise from north.
    var dopplerSpeed: Double?
    var courseRadians: Double?
    /// The first fix of a new track segment: nothing is bridged from the fix before it.
    var startsSegment = false
}

/// An offline Rauch–Tung–Striebel smoother that models the receiver's position error as what
/// it is: a slowly wandering bias (first-order Gauss–Markov per axis, correlation time tens of
/// seconds) plus a little white jitter.
///
/// State: (east, north, vEast, vNorth, biasEast, biasNorth); a fix measures position + bias,
/// the Doppler speed and course the velocity. Positions then inform the motion only over
/// times longer than the bias's correlation time and the white Doppler carries the short
/// term, instead of positions being white with an inflated variance. The position is the
/// integral of the velocity (no position noise of its own beyond a trace): a white-acceleration
/// position noise would let the position wander on its own, and the fixes could then no
/// longer correct the integrated speed, which is the distance.
struct PositionBiasSmoother {
    /// The smoothed motion at one step.
    struct Smoothed: Sendable, Equatable {
        var east: Double
        var north: Double
        var velocityEast: Double
        var velocityNorth: Double
        /// Variance of the east and north position, metres² (for bounds over gaps).
        var positionVariance: Double
    }

    let settings: TelemetrySettings
    /// Standard deviation of a Doppler speed, metres per second (estimated from the run).
    let dopplerSigma: Double

    /// A trace of position noise, m²/s, for what the straight steps between fixes miss.
    static let positionNoiseSpectralDensity = 0.001

    private var correlationSeconds: Double { max(1, settings.positionBiasCorrelationSeconds) }
    private var biasFraction: Double { min(max(settings.positionBiasVarianceFraction, 0), 0.999) }

    /// The transition over `dt` seconds.
    func transition(_ dt: Double) -> Matrix6 {
        var f = Matrix6.identity
        f[0, 2] = dt
        f[1, 3] = dt
        let a = exp(-dt / correlationSeconds)
        f[4, 4] = a
        f[5, 5] = a
        return f
    }

    /// White acceleration for the velocity, the Gauss–Markov driving noise for the bias.
    func processNoise(_ dt: Double, biasVariance: (Double, Double)) -> Matrix6 {
        var m = Matrix6.zero
        m[0, 0] = Self.positionNoiseSpectralDensity * dt
        m[1, 1] = Self.positionNoiseSpectralDensity * dt
        m[2, 2] = settings.accelerationSpectralDensity * dt
        m[3, 3] = settings.accelerationSpectralDensity * dt
        let decay = 1 - exp(-2 * dt / correlationSeconds)
        m[4, 4] = biasVariance.0 * decay
        m[5, 5] = biasVariance.1 * decay
        return m
    }

    /// Smoothed states at every step (times in seconds, ascending).
    func smooth(times: [Double], observations: [FixObservation], stationary: [Bool],
                initialVelocity: (east: Double, north: Double, variance: Double)) -> [Smoothed] {
        let n = times.count
        guard n > 0, observations.count == n, stationary.count == n else { return [] }
        var predictedStates = [Vector6](repeating: .zero, count: n)
        var predictedCovariances = [Matrix6](repeating: .zero, count: n)
        var filteredStates = [Vector6](repeating: .zero, count: n)
        var filteredCovariances = [Matrix6](repeating: .zero, count: n)

        let first = observations[0]
        var x = Vector6(first.east, first.north, initialVelocity.east, initialVelocity.north, 0, 0, 0, 0)
        var p = Matrix6.diagonal(Vector6(1e6, 1e6, initialVelocity.variance, initialVelocity.variance,
                                         biasFraction * first.varianceEast, biasFraction * first.varianceNorth, 0, 0))
        for k in 0..<n {
            let o = observations[k]
            let dt = k > 0 ? times[k] - times[k - 1] : 1
            if k > 0 {
                let f = transition(dt)
                x = f * x
                p = (f * p * f.transposed + processNoise(dt, biasVariance: (biasFraction * o.varianceEast, biasFraction * o.varianceNorth))).symmetrised
            }
            predictedStates[k] = x
            predictedCovariances[k] = p
            if o.relocked {
                // The live filter lost track and jumped to the fixes: forget where we thought we were.
                for i in 2..<6 {
                    p[0, i] = 0; p[i, 0] = 0; p[1, i] = 0; p[i, 1] = 0
                }
                p[0, 1] = 0; p[1, 0] = 0
                p[0, 0] = 1e6; p[1, 1] = 1e6
            }
            if o.positionUsed || k == 0 {
                let inflation = max(1, settings.positionWhiteCorrelationSeconds / max(dt, 1e-3))
                let white = (1 - biasFraction) * inflation
                Self.update(&x, &p, h: Vector6(1, 0, 0, 0, 1, 0, 0, 0), innovation: o.east - x[0] - x[4], variance: white * o.varianceEast)
                Self.update(&x, &p, h: Vector6(0, 1, 0, 0, 0, 1, 0, 0), innovation: o.north - x[1] - x[5], variance: white * o.varianceNorth)
            }
            applyVelocity(&x, &p, observation: o, stationary: stationary[k])
            filteredStates[k] = x
            filteredCovariances[k] = p
        }

        var smoothed = [Smoothed](repeating: Smoothed(east: 0, north: 0, velocityEast: 0, velocityNorth: 0, positionVariance: 0), count: n)
        var xs = filteredStates[n - 1]
        var ps = filteredCovariances[n - 1]
        smoothed[n - 1] = Self.smoothed(xs, ps)
        var k = n - 2
        while k >= 0 {
            let pf = filteredCovariances[k]
            if let inverse = predictedCovariances[k + 1].inverse {
                let gain = pf * transition(times[k + 1] - times[k]).transposed * inverse
                xs = filteredStates[k] + gain * (xs - predictedStates[k + 1])
                ps = (pf + gain * (ps - predictedCovariances[k + 1]) * gain.transposed).symmetrised
            } else {
                xs = filteredStates[k]
                ps = pf
            }
            smoothed[k] = Self.smoothed(xs, ps)
            k -= 1
        }
        return smoothed
    }

    private static func smoothed(_ x: Vector6, _ p: Matrix6) -> Smoothed {
        Smoothed(east: x[0], north: x[1], velocityEast: x[2], velocityNorth: x[3], positionVariance: max(p[0, 0], p[1, 1]))
    }

    /// The Doppler speed and course, or zero velocity while standing (as the live filter).
    private func applyVelocity(_ x: inout Vector6, _ p: inout Matrix6, observation o: FixObservation, stationary: Bool) {
        let speedVariance = dopplerSigma * dopplerSigma
        if stationary {
            if o.dopplerSpeed != nil {
                Self.update(&x, &p, h: Vector6(0, 0, 1, 0, 0, 0, 0, 0), innovation: -x[2], variance: speedVariance)
                Self.update(&x, &p, h: Vector6(0, 0, 0, 1, 0, 0, 0, 0), innovation: -x[3], variance: speedVariance)
            }
            return
        }
        guard let speed = o.dopplerSpeed else { return }
        if let course = o.courseRadians, course.isFinite {
            let sigma = atan2(dopplerSigma, speed) + settings.courseSigmaFloorDegrees * .pi / 180
            let ve = x[2], vn = x[3]
            let s2 = ve * ve + vn * vn
            if s2 < 0.09 {
                // Too slow to linearise about: take the Doppler velocity vector as it is.
                let variance = speedVariance + speed * speed * sigma * sigma
                Self.update(&x, &p, h: Vector6(0, 0, 1, 0, 0, 0, 0, 0), innovation: speed * sin(course) - x[2], variance: variance)
                Self.update(&x, &p, h: Vector6(0, 0, 0, 1, 0, 0, 0, 0), innovation: speed * cos(course) - x[3], variance: variance)
            } else {
                var innovation = course - atan2(ve, vn)
                innovation -= 2 * .pi * (innovation / (2 * .pi)).rounded()
                Self.update(&x, &p, h: Vector6(0, 0, vn / s2, -ve / s2, 0, 0, 0, 0), innovation: innovation, variance: sigma * sigma)
                // Rotate only: the linearised step would lengthen the velocity (see ConstantVelocityFilter).
                let after = (x[2] * x[2] + x[3] * x[3]).squareRoot()
                if after > 1e-9 {
                    let scale = s2.squareRoot() / after
                    x[2] *= scale
                    x[3] *= scale
                }
            }
        }
        let current = (x[2] * x[2] + x[3] * x[3]).squareRoot()
        guard current > 1e-3 else { return }
        Self.update(&x, &p, h: Vector6(0, 0, x[2] / current, x[3] / current, 0, 0, 0, 0), innovation: speed - current,
                    variance: speedVariance)
    }

    /// A linear scalar update z = h·x + noise, given the innovation z − h·x.
    static func update(_ x: inout Vector6, _ p: inout Matrix6, h: Vector6, innovation: Double, variance: Double) {
        let ph = p * h
        let s = (h * ph).sum() + variance
        guard s > 0, s.isFinite, innovation.isFinite else { return }
        let gain = ph / s
        x += gain * innovation
        p = (p - Matrix6.outer(gain, ph)).symmetrised
    }

    /// The Doppler speed's noise from the run itself: the spread of the differences of
    /// consecutive readings while moving (median absolute deviation, so the runner's own speed
    /// changes and the odd wild reading do not count); nil with fewer than 30 such pairs.
    static func dopplerSigmaEstimate(times: [Double], dopplerSpeeds: [Double?], stationary: [Bool]) -> Double? {
        var differences: [Double] = []
        for k in times.indices.dropFirst() where !stationary[k] && !stationary[k - 1] && times[k] - times[k - 1] <= 1.5 {
            guard let a = dopplerSpeeds[k - 1], let b = dopplerSpeeds[k] else { continue }
            differences.append(abs(b - a))
        }
        guard differences.count >= 30 else { return nil }
        differences.sort()
        // |N(0, 2σ²)| has its median at 0.6745·√2·σ.
        return differences[differences.count / 2] / (0.6745 * 2.0.squareRoot())
    }
}
