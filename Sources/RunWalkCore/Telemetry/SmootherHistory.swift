/// The filter's estimate at every used fix, for an offline Rauch–Tung–Striebel pass that
/// refines the post-run distance with later fixes.
///
/// Kept small, as a 5-hour run at 10 Hz has 180,000 steps: the covariance as its upper
/// triangle (the filter keeps it exactly symmetric: every change ends symmetrised), no
/// predicted estimate (the backward pass predicts again from the step before, the same
/// arithmetic as the live filter, so the same bits), and the raw observations only when the
/// position-bias model, their only reader, is on (the Doppler speed always: the noise
/// estimate reads it): 129 bytes a step. Stored in chunks: no doubling copies.
public struct SmootherHistory: Sendable {
    struct Step: Sendable {
        // The state as four doubles, not a SIMD4: its 32-byte alignment would pad every step.
        var east, north, velocityEast, velocityNorth: Double
        var covariance: SymmetricMatrix4
        var time: Double
        /// The receiver's Doppler speed (NaN without one), for the Doppler noise estimate.
        var dopplerSpeed: Double

        var state: SIMD4<Double> { SIMD4(east, north, velocityEast, velocityNorth) }

        var filtered: ConstantVelocityFilter {
            ConstantVelocityFilter(state: state, covariance: covariance.matrix)
        }
    }

    private var steps = ChunkedArray<Step>()
    /// Each step's flags (`stationaryFlag`, `segmentFlag`), a byte apart from the 128-byte step:
    /// inside it two booleans would pad every step to 136 bytes.
    private var flags = ChunkedArray<UInt8>()
    private static let stationaryFlag: UInt8 = 1
    private static let segmentFlag: UInt8 = 2
    /// The fixes as observed, for the position-bias model only (empty without it).
    private var observations = ChunkedArray<FixObservation>()

    public init() {}

    public var isEmpty: Bool { steps.isEmpty }
    public var count: Int { steps.count }
    /// Seconds since the first fix of every step.
    public var times: [Double] { steps.map(\.time) }

    /// Seconds since the first fix of step `k`.
    func time(_ k: Int) -> Double { steps[k].time }

    /// Appends a step; the observation is kept only when `keepingObservation` (the bias model is on).
    mutating func append(time: Double, filtered: ConstantVelocityFilter, stationary: Bool,
                         observation: FixObservation, keepingObservation: Bool) {
        let state = filtered.state
        steps.append(Step(east: state[0], north: state[1], velocityEast: state[2], velocityNorth: state[3],
                          covariance: SymmetricMatrix4(filtered.covariance), time: time,
                          dopplerSpeed: observation.dopplerSpeed ?? .nan))
        flags.append((stationary ? Self.stationaryFlag : 0) | (observation.startsSegment ? Self.segmentFlag : 0))
        if keepingObservation { observations.append(observation) }
    }

    /// Whether the receiver was taken to stand still at step `k`.
    private func stationary(_ k: Int) -> Bool { flags[k] & Self.stationaryFlag != 0 }

    /// Whether step `k` starts a new track segment.
    private func startsSegment(_ k: Int) -> Bool { flags[k] & Self.segmentFlag != 0 }

    /// Seconds from step `k - 1` to step `k` (0 for the first).
    private func dt(_ k: Int) -> Double {
        k == 0 ? 0 : steps[k].time - steps[k - 1].time
    }

    /// The Doppler speed's noise estimated from the stored readings (`PositionBiasSmoother`).
    func dopplerSigmaEstimate() -> Double? {
        PositionBiasSmoother.dopplerSigmaEstimate(times: times, dopplerSpeeds: steps.map { $0.dopplerSpeed.isNaN ? nil : $0.dopplerSpeed },
                                                  stationary: flags.map { $0 & Self.stationaryFlag != 0 })
    }

    /// Smoothed (east, north, vEast, vNorth) and position variance at every step with the
    /// receiver's position bias modelled; nil when the settings do not ask for it or the run
    /// has no Doppler (without a white speed to carry the short term the model only loses).
    func biasSmoothedStates(settings: TelemetrySettings) -> [PositionBiasSmoother.Smoothed]? {
        guard settings.smootherModelsPositionBias, let first = steps.first, observations.count == steps.count,
              steps.contains(where: { !$0.dopplerSpeed.isNaN }) else { return nil }
        let sigma = dopplerSigmaEstimate().map { max(0.02, $0) } ?? settings.dopplerSpeedSigma
        let filtered = first.filtered
        let velocity = (filtered.velocityEast, filtered.velocityNorth, filtered.covariance[2, 2])
        return PositionBiasSmoother(settings: settings, dopplerSigma: sigma).smooth(
            times: times, observations: observations.map { $0 }, stationary: flags.map { $0 & Self.stationaryFlag != 0 },
            initialVelocity: velocity)
    }

    /// Visits the smoothed (east, north, vEast, vNorth) of every step, last to first: the
    /// backward pass needs only the step after, so no array of every state is made.
    func visitSmoothedStates(settings: TelemetrySettings, _ visit: (Int, SIMD4<Double>) -> Void) {
        guard let last = steps.last else { return }
        var after = last.state
        visit(steps.count - 1, after)
        var k = steps.count - 2
        while k >= 0 {
            let dt = self.dt(k + 1)
            let f = Matrix4.constantVelocity(dt)
            let filtered = steps[k].filtered
            let smoothed: SIMD4<Double>
            if startsSegment(k + 1) {
                // Nothing links the two sides of a segment break: each keeps its own estimate.
                smoothed = filtered.state
            } else {
                // The live filter's prediction for the next step, made again from this step.
                var predicted = filtered
                predicted.predict(by: dt, accelerationSpectralDensity: settings.accelerationSpectralDensity)
                if let inverse = predicted.covariance.inverse {
                    let gain = filtered.covariance * f.transposed * inverse
                    smoothed = filtered.state + gain * (after - predicted.state)
                } else {
                    smoothed = filtered.state
                }
            }
            visit(k, smoothed)
            after = smoothed
            k -= 1
        }
    }

    /// Whether the distance bridges a gap into step `k` (no segment break, longer than a gap).
    private func bridgesGap(into k: Int, settings: TelemetrySettings) -> Bool {
        k > 0 && !startsSegment(k) && dt(k) > settings.gapSeconds
    }

    /// Cumulative smoothed distance at every step, metres (same rules as the live distance).
    func smoothedCumulativeDistance(settings: TelemetrySettings) -> [Double] {
        // Only what the distance needs is kept of the smoothed states: the speed at every step
        // and the position at both ends of a gap (the bridge's chord).
        var speeds = [Double](repeating: 0, count: steps.count)
        var gapEnds: [Int: SIMD2<Double>] = [:]
        func take(_ k: Int, _ s: SIMD4<Double>) {
            speeds[k] = stationary(k) ? 0 : (s[2] * s[2] + s[3] * s[3]).squareRoot()
            if bridgesGap(into: k, settings: settings) || (k + 1 < steps.count && bridgesGap(into: k + 1, settings: settings)) {
                gapEnds[k] = SIMD2(s[0], s[1])
            }
        }
        // One smoothing pass: the bias model's when asked for (and the run has Doppler), else RTS.
        var biasedVariances: [Double]?
        if let biased = biasSmoothedStates(settings: settings) {
            for (k, b) in biased.enumerated() { take(k, SIMD4(b.east, b.north, b.velocityEast, b.velocityNorth)) }
            biasedVariances = biased.map(\.positionVariance)
        } else {
            visitSmoothedStates(settings: settings, take)
        }
        // Read where needed, not copied out for every step: the history is large enough.
        func positionVariance(_ k: Int) -> Double { biasedVariances?[k] ?? steps[k].covariance.topLeft }
        var cumulative = [Double](repeating: 0, count: steps.count)
        for k in steps.indices.dropFirst() {
            let dt = self.dt(k)
            if startsSegment(k) {
                // A segment break in the track: no distance across it, as live.
                cumulative[k] = cumulative[k - 1]
                continue
            }
            var increment = dt * (speeds[k - 1] + speeds[k]) / 2
            if dt > settings.gapSeconds, let s = gapEnds[k], let p = gapEnds[k - 1] {
                let chord = ((s[0] - p[0]) * (s[0] - p[0]) + (s[1] - p[1]) * (s[1] - p[1])).squareRoot()
                let variance = positionVariance(k - 1) + positionVariance(k)
                // One smoothed speed at each edge is as noisy as one Doppler sample: average the
                // moving stretch on each side, as the live bridge does once it has seen it.
                let before = speeds[k - 1] == 0 ? 0 : meanSpeed(speeds, from: k - 1, step: -1, settings: settings)
                let after = speeds[k] == 0 ? 0 : meanSpeed(speeds, from: k, step: 1, settings: settings)
                increment = GapBridge(durationSeconds: dt, speedBefore: before, speedAfter: after,
                                      chordMetres: chord, slackMetres: variance.squareRoot(), stopTakesChord: true).estimateMetres
            }
            cumulative[k] = cumulative[k - 1] + increment
        }
        return cumulative
    }

    /// The time-weighted mean speed over up to `GapBridge.refineSeconds` of moving steps from
    /// step `k` away from a gap (`step` −1: backwards), stopping at a stop or another gap.
    private func meanSpeed(_ speeds: [Double], from k: Int, step: Int, settings: TelemetrySettings) -> Double {
        var metres = 0.0, seconds = 0.0, i = k
        while seconds < GapBridge.refineSeconds {
            let j = i + step
            guard j >= 0, j < steps.count, speeds[j] > 0 else { break }
            let dt = self.dt(max(i, j))
            guard dt <= settings.gapSeconds else { break }
            metres += dt * (speeds[i] + speeds[j]) / 2
            seconds += dt
            i = j
        }
        return seconds > 0 ? metres / seconds : speeds[k]
    }

    /// A cumulative series evaluated at a time (seconds since the first fix), linearly.
    func interpolate(_ series: [Double], at time: Double) -> Double {
        guard let first = steps.first, let lastValue = series.last else { return 0 }
        if time <= first.time { return series.first ?? 0 }
        var lo = 0, hi = steps.count - 1
        if time >= steps[hi].time { return lastValue }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if steps[mid].time <= time { lo = mid } else { hi = mid }
        }
        let span = steps[hi].time - steps[lo].time
        let fraction = span > 0 ? (time - steps[lo].time) / span : 0
        return series[lo] + (series[hi] - series[lo]) * fraction
    }
}
