/// The filter's estimate at the recent used fixes, for an offline Rauch–Tung–Striebel pass that
/// refines the post-run distance with later fixes; older steps are settled as the run goes.
///
/// A live run must not grow with its length (5 hours at 10 Hz is 180,000 steps), so the history
/// is a window: once it holds `blockSteps + lagSteps` steps, the backward pass runs from its
/// newest step down, and the oldest `blockSteps` steps, `lagSteps` or more behind that newest one,
/// are settled: reduced to the speed and position the distance needs (`SmoothedDistanceReducer`)
/// and dropped. A smoothed step depends on a later fix through a product of the backward gains,
/// which shrinks by a factor of e about every 80 s of 10 Hz fixes (faster at 1 Hz), so 8192
/// steps behind the newest fix the smoothed state is the whole-run pass's to within a tenth of
/// a millimetre over an hour (the tests compare both; the summary rounds distance to the centimetre).
/// With the position-bias model on (an option for tuning, off by default) nothing is settled
/// early: its pass needs every observation.
///
/// Kept small per step: the covariance as its upper triangle (the filter keeps it exactly
/// symmetric: every change ends symmetrised), no predicted estimate (the backward pass
/// predicts again from the step before, the same arithmetic as the live filter, so the same
/// bits), the raw observations only when the bias model, their only reader, is on.
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

    /// Steps settled at a time once `lagSteps` newer ones follow them. The lag is what makes the
    /// settled steps the whole-run pass's: on a 2-hour 10 Hz run with stops and a dropout the
    /// summary's smoothed distance moved by 7.5 cm with a lag of 2048 steps, 5.6 mm with 4096,
    /// 0.04 mm with 8192, 0.0002 mm with 12288 (at 10 Hz, where Doppler pins the velocity, a
    /// fix's influence on the past fades by e over about 80 s; at 1 Hz it fades faster). 8192
    /// steps (14 minutes at 10 Hz) settled 2048 at a time keep the whole-run figures to within
    /// 0.1 mm and 0.1 ms (`SmootherWindowTests`), with a window of at most 10,240 steps, 1.25 MB,
    /// whatever the run's length; each step goes through the backward pass five times. (It was
    /// 4096 + 12,288 steps, 2 MB, until a speaking run's resident memory was measured against
    /// the 25 MB goal of issue 18.)
    static let defaultBlockSteps = 2048
    static let defaultLagSteps = 8192
    /// The same lag in time: 8192 fixes at 10 Hz. A fix's pull on the past fades with time, not
    /// with the number of fixes (at 1 Hz faster still), so a block is also settled once its newest
    /// step is this far behind the newest fix: at 1 Hz the window then holds about 2048 + 820
    /// steps (360 kB) instead of filling to 10,240 over 2.8 hours.
    static let defaultLagSeconds = Double(defaultLagSteps) / 10

    let settings: TelemetrySettings
    /// Steps settled at a time.
    let blockSteps: Int
    /// Newer steps a step waits for before it is settled.
    let lagSteps: Int
    /// Seconds a step waits behind the newest before it is settled, whatever the steps between.
    let lagSeconds: Double
    /// The steps not settled yet.
    private var steps = ChunkedArray<Step>()
    /// Each step's flags (`stationaryFlag`, `segmentFlag`), a byte apart from the 128-byte step:
    /// inside it two booleans would pad every step to 136 bytes.
    private var flags = ChunkedArray<UInt8>()
    private static let stationaryFlag: UInt8 = 1
    private static let segmentFlag: UInt8 = 2
    /// The fixes as observed, for the position-bias model only (empty without it).
    private var observations = ChunkedArray<FixObservation>()
    /// Steps settled and dropped so far.
    private var settledCount = 0
    private var reducer: SmoothedDistanceReducer
    /// Where settled distance goes: the whole series, or a session's span.
    private(set) var sink: SmoothedDistanceSink = .series(ChunkedArray())

    /// An empty history for `settings`, settling `blockSteps` at a time `lagSteps` or
    /// `lagSeconds` behind the newest, whichever comes first.
    init(settings: TelemetrySettings, blockSteps: Int = Self.defaultBlockSteps, lagSteps: Int = Self.defaultLagSteps,
         lagSeconds: Double = Self.defaultLagSeconds) {
        self.settings = settings
        self.blockSteps = max(1, blockSteps)
        self.lagSteps = max(1, lagSteps)
        self.lagSeconds = lagSeconds
        reducer = SmoothedDistanceReducer(gapSeconds: settings.gapSeconds)
    }

    /// Whether no step was ever added.
    public var isEmpty: Bool { count == 0 }
    /// Steps added over the run.
    public var count: Int { settledCount + steps.count }
    /// Per-step records held in memory (window, reducer, a kept series): what a long run must not grow.
    var retainedCount: Int { steps.count + reducer.retainedCount + sink.retainedCount }
    /// Steps whose slots are allocated (whole chunks), the window's memory in steps.
    var allocatedSteps: Int { steps.allocatedCount }

    /// Seconds since the first fix of every step not settled yet.
    var times: [Double] { steps.map(\.time) }

    /// Appends a step; the observation is kept only when `keepingObservation` (the bias model is on).
    mutating func append(time: Double, filtered: ConstantVelocityFilter, stationary: Bool,
                         observation: FixObservation, keepingObservation: Bool) {
        let state = filtered.state
        steps.append(Step(east: state[0], north: state[1], velocityEast: state[2], velocityNorth: state[3],
                          covariance: SymmetricMatrix4(filtered.covariance), time: time,
                          dopplerSpeed: observation.dopplerSpeed ?? .nan))
        flags.append((stationary ? Self.stationaryFlag : 0) | (observation.startsSegment ? Self.segmentFlag : 0))
        if keepingObservation { observations.append(observation) }
        if !settings.smootherModelsPositionBias, steps.count >= blockSteps + lagSteps
            || (steps.count > blockSteps && time - steps[blockSteps - 1].time >= lagSeconds) {
            settle(blockSteps, final: false)
        }
    }

    /// Folds the settled series into a span from then on (see `SmoothedSpan`); the points
    /// settled so far go into it at once.
    mutating func beginSpan(_ span: SmoothedSpan) {
        var span = span
        if case .series(let points) = sink {
            for index in points.indices { span.take(points[index].seconds, points[index].metres) }
        }
        sink = .span(span)
    }

    /// The span ends at `end` (seconds since the first fix): later points only interpolate it.
    mutating func endSpan(at end: Double) {
        guard case .span(var span) = sink, span.end == nil else { return }
        span.end = end
        sink = .span(span)
    }

    /// The sink with every step settled (the history itself is left as it is).
    func settledSink() -> SmoothedDistanceSink {
        var copy = self
        copy.settleAll()
        return copy.sink
    }

    /// The span's figures when it ends at `end` (seconds since the first fix); nil without a
    /// span or without steps.
    func spanFigures(endingAt end: Double) -> (distanceMetres: Double, splits: [Split])? {
        // The points not yet settled go straight to the span's end, not through its running figures.
        var copy = self
        guard case .span(let span) = copy.sink else { return nil }
        copy.sink = .series(ChunkedArray())
        copy.settleAll()
        guard case .series(let rest) = copy.sink else { return nil }
        return span.finished(at: end, rest: rest)
    }

    /// Whether the receiver was taken to stand still at step `k` (of the window).
    private func stationary(_ k: Int) -> Bool { flags[k] & Self.stationaryFlag != 0 }

    /// Whether step `k` (of the window) starts a new track segment.
    private func startsSegment(_ k: Int) -> Bool { flags[k] & Self.segmentFlag != 0 }

    /// Seconds from step `k - 1` to step `k` of the window.
    private func dt(_ k: Int) -> Double {
        k == 0 ? 0 : steps[k].time - steps[k - 1].time
    }

    /// Settles every step (the end of the run).
    private mutating func settleAll() {
        guard !steps.isEmpty else { return }
        settle(steps.count, final: true)
    }

    /// Smooths the window from its newest step backwards and settles its oldest `n` steps:
    /// their speeds and positions go to the reducer, the distance it settles to the sink.
    private mutating func settle(_ n: Int, final: Bool) {
        var settled: [SmoothedDistanceReducer.Step] = []
        settled.reserveCapacity(n)
        func take(_ k: Int, _ s: SIMD4<Double>, positionVariance: Double) {
            guard k < n else { return }
            settled.append(SmoothedDistanceReducer.Step(
                time: steps[k].time, speed: stationary(k) ? 0 : (s[2] * s[2] + s[3] * s[3]).squareRoot(),
                east: s[0], north: s[1], positionVariance: positionVariance, startsSegment: startsSegment(k)))
        }
        // One smoothing pass: the bias model's when asked for (and the run has Doppler), else RTS.
        if final, let biased = biasSmoothedStates() {
            for (k, b) in biased.enumerated().reversed() {
                take(k, SIMD4(b.east, b.north, b.velocityEast, b.velocityNorth), positionVariance: b.positionVariance)
            }
        } else {
            visitSmoothedStates { k, s in take(k, s, positionVariance: steps[k].covariance.topLeft) }
        }
        for step in settled.reversed() { reducer.add(step) }
        var sink = self.sink
        reducer.advance(final: final) { sink.take($0, $1) }
        self.sink = sink
        steps.removeFirst(n)
        flags.removeFirst(n)
        observations.removeFirst(n)
        settledCount += n
    }

    /// The Doppler speed's noise estimated from the steps not settled yet (every step with the
    /// bias model on) (`PositionBiasSmoother`).
    func dopplerSigmaEstimate() -> Double? {
        PositionBiasSmoother.dopplerSigmaEstimate(times: times, dopplerSpeeds: steps.map { $0.dopplerSpeed.isNaN ? nil : $0.dopplerSpeed },
                                                  stationary: flags.map { $0 & Self.stationaryFlag != 0 })
    }

    /// Smoothed (east, north, vEast, vNorth) and position variance at every step with the
    /// receiver's position bias modelled; nil when the settings do not ask for it or the run
    /// has no Doppler (without a white speed to carry the short term the model only loses).
    func biasSmoothedStates() -> [PositionBiasSmoother.Smoothed]? {
        guard settings.smootherModelsPositionBias, settledCount == 0, let first = steps.first, observations.count == steps.count,
              steps.contains(where: { !$0.dopplerSpeed.isNaN }) else { return nil }
        let sigma = dopplerSigmaEstimate().map { max(0.02, $0) } ?? settings.dopplerSpeedSigma
        let filtered = first.filtered
        let velocity = (filtered.velocityEast, filtered.velocityNorth, filtered.covariance[2, 2])
        return PositionBiasSmoother(settings: settings, dopplerSigma: sigma).smooth(
            times: times, observations: observations.map { $0 }, stationary: flags.map { $0 & Self.stationaryFlag != 0 },
            initialVelocity: velocity)
    }

    /// Visits the smoothed (east, north, vEast, vNorth) of every step of the window, last to
    /// first, from the newest step's filtered state: the backward pass needs only the step after,
    /// so no array of every state is made.
    func visitSmoothedStates(_ visit: (Int, SIMD4<Double>) -> Void) {
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
                    // The gain P·Fᵀ·P⁻ applied to the innovation right to left: three
                    // matrix-vector products instead of two matrix products and one.
                    smoothed = filtered.state + filtered.covariance * (f.transposed * (inverse * (after - predicted.state)))
                } else {
                    smoothed = filtered.state
                }
            }
            visit(k, smoothed)
            after = smoothed
            k -= 1
        }
    }
}
