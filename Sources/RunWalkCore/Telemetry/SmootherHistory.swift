/// The filter's predicted and filtered states at every used fix, for an offline
/// Rauch–Tung–Striebel pass that refines the post-run distance with later fixes.
public struct SmootherHistory: Sendable {
    struct Step: Sendable {
        var time: Double
        var dt: Double
        var predicted: ConstantVelocityFilter
        var filtered: ConstantVelocityFilter
        var stationary: Bool
        var observation: FixObservation
    }

    private var steps: [Step] = []

    public init() {}

    public var isEmpty: Bool { steps.isEmpty }
    public var count: Int { steps.count }
    /// Seconds since the first fix of every step.
    public var times: [Double] { steps.map(\.time) }

    mutating func append(time: Double, predicted: ConstantVelocityFilter, filtered: ConstantVelocityFilter, stationary: Bool,
                         observation: FixObservation) {
        let dt = steps.last.map { time - $0.time } ?? 0
        steps.append(Step(time: time, dt: dt, predicted: predicted, filtered: filtered, stationary: stationary,
                          observation: observation))
    }

    /// The Doppler speed's noise estimated from the stored readings (`PositionBiasSmoother`).
    func dopplerSigmaEstimate() -> Double? {
        PositionBiasSmoother.dopplerSigmaEstimate(times: steps.map(\.time), observations: steps.map(\.observation),
                                                  stationary: steps.map(\.stationary))
    }

    /// Smoothed (east, north, vEast, vNorth) and position variance at every step with the
    /// receiver's position bias modelled; nil when the settings do not ask for it or the run
    /// has no Doppler (without a white speed to carry the short term the model only loses).
    func biasSmoothedStates(settings: TelemetrySettings) -> [PositionBiasSmoother.Smoothed]? {
        guard settings.smootherModelsPositionBias, let first = steps.first,
              steps.contains(where: { $0.observation.dopplerSpeed != nil }) else { return nil }
        let sigma = dopplerSigmaEstimate().map { max(0.02, $0) } ?? settings.dopplerSpeedSigma
        let velocity = (first.filtered.velocityEast, first.filtered.velocityNorth, first.filtered.covariance[2, 2])
        return PositionBiasSmoother(settings: settings, dopplerSigma: sigma).smooth(
            times: steps.map(\.time), observations: steps.map(\.observation), stationary: steps.map(\.stationary),
            initialVelocity: velocity)
    }

    /// Smoothed (east, north, vEast, vNorth) at every step.
    func smoothedStates() -> [SIMD4<Double>] {
        guard let last = steps.last else { return [] }
        var smoothed = [SIMD4<Double>](repeating: .zero, count: steps.count)
        smoothed[steps.count - 1] = last.filtered.state
        var k = steps.count - 2
        while k >= 0 {
            let next = steps[k + 1]
            let f = Matrix4.constantVelocity(next.dt)
            let filtered = steps[k].filtered
            if next.observation.startsSegment {
                // Nothing links the two sides of a segment break: each keeps its own estimate.
                smoothed[k] = filtered.state
            } else if let inverse = next.predicted.covariance.inverse {
                let gain = filtered.covariance * f.transposed * inverse
                smoothed[k] = filtered.state + gain * (smoothed[k + 1] - next.predicted.state)
            } else {
                smoothed[k] = filtered.state
            }
            k -= 1
        }
        return smoothed
    }

    /// Cumulative smoothed distance at every step, metres (same rules as the live distance).
    func smoothedCumulativeDistance(settings: TelemetrySettings) -> [Double] {
        // One smoothing pass: the bias model's when asked for (and the run has Doppler), else RTS.
        let states: [SIMD4<Double>], positionVariances: [Double]
        if let biased = biasSmoothedStates(settings: settings) {
            states = biased.map { SIMD4($0.east, $0.north, $0.velocityEast, $0.velocityNorth) }
            positionVariances = biased.map(\.positionVariance)
        } else {
            states = smoothedStates()
            positionVariances = steps.map { $0.filtered.covariance[0, 0] }
        }
        let speeds = states.indices.map { k -> Double in
            let s = states[k]
            return steps[k].stationary ? 0 : (s[2] * s[2] + s[3] * s[3]).squareRoot()
        }
        var cumulative = [Double](repeating: 0, count: states.count)
        for k in states.indices.dropFirst() {
            let s = states[k]
            let dt = steps[k].dt
            if steps[k].observation.startsSegment {
                // A segment break in the track: no distance across it, as live.
                cumulative[k] = cumulative[k - 1]
                continue
            }
            var increment = dt * (speeds[k - 1] + speeds[k]) / 2
            if dt > settings.gapSeconds {
                let p = states[k - 1]
                let chord = ((s[0] - p[0]) * (s[0] - p[0]) + (s[1] - p[1]) * (s[1] - p[1])).squareRoot()
                let variance = positionVariances[k - 1] + positionVariances[k]
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
            let dt = steps[max(i, j)].dt
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
