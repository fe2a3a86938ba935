/// Without Doppler, tells a step of the receiver's position from the runner's motion.
///
/// Between tall buildings a receiver's position carries a bias from reflected (non-line-of-sight)
/// signals that steps by 10–25 m when the satellites used or the street change, and stays. With
/// Doppler the speed says the runner did not move; without it the filter takes every step as
/// motion, and the distance grows by the step. A fix's move from the last used fix, less what the
/// filter's velocity explains, is a few metres for the runner's motion at 1 Hz (a turn, a change
/// of pace, a stop), and a fraction of that at 10 Hz; a larger one is the receiver's. The filter's
/// position is shifted by it, its velocity kept, and the shift is not counted as progress.
struct PositionStepGuard: Sendable {
    /// The smallest step taken as the receiver's, metres (infinity: never).
    let thresholdMetres: Double
    /// The largest, metres: a larger jump is an outlier or a lost lock, left to the gate.
    let maximumMetres: Double
    /// The runner's acceleration allowed for on top, m/s² (a corner at speed, a sprint's start).
    static let accelerationMetresPerSecondSquared = 3.0
    /// Standard deviations of the filter's velocity allowed for on top.
    static let velocitySigmas = 3.0
    private var last: (time: Double, east: Double, north: Double)?

    init(thresholdMetres: Double, maximumMetres: Double) {
        self.thresholdMetres = thresholdMetres
        self.maximumMetres = maximumMetres
    }

    /// The last used fix (the filter started, relocked or took it).
    mutating func record(time: Double, east: Double, north: Double) {
        last = (time, east, north)
    }

    /// The step of the fix at `east`, `north` (time `time`), given the filter predicted to it:
    /// its move from the last used fix less the filter's velocity over the interval, when motion
    /// cannot explain it; nil when it can.
    func step(time: Double, east: Double, north: Double, predicted filter: ConstantVelocityFilter) -> (east: Double, north: Double)? {
        guard thresholdMetres.isFinite, let last, time > last.time else { return nil }
        let dt = time - last.time
        let de = east - last.east - filter.velocityEast * dt
        let dn = north - last.north - filter.velocityNorth * dt
        let velocitySigma = max(0, filter.covariance[2, 2] + filter.covariance[3, 3]).squareRoot()
        let allowed = thresholdMetres + Self.velocitySigmas * velocitySigma * dt + Self.accelerationMetresPerSecondSquared * dt * dt / 2
        let size2 = de * de + dn * dn
        guard size2.squareRoot() > allowed, size2.squareRoot() <= maximumMetres else { return nil }
        // The filter may have taken only part of the last move (an outlier's onset absorbed
        // slowly): shift it by no more than its own offset from the fix along the step.
        let along = ((east - filter.east) * de + (north - filter.north) * dn) / size2
        let share = min(1, max(0, along))
        return share > 0 ? (de * share, dn * share) : nil
    }
}

extension Telemetry {
    /// Without Doppler, shifts the predicted filter (and the estimate the fix's progress counts
    /// from) by the receiver's step at this fix, if any (`PositionStepGuard`), when the fix then
    /// passes the gate (fixes that fail it even so are left to the gate: a lost lock).
    func screenStep(_ filter: inout ConstantVelocityFilter, from before: inout ConstantVelocityFilter, east: Double, north: Double,
                    variance: (Double, Double), time: Double, dt: Double, doppler: Double?) {
        guard doppler == nil, dt <= settings.gapSeconds,
              let step = stepGuard.step(time: time, east: east, north: north, predicted: filter) else { return }
        var shifted = filter
        shifted.shiftPosition(east: step.east, north: step.north)
        guard shifted.positionMahalanobisSquared(east: east, north: north, varianceEast: variance.0, varianceNorth: variance.1)
                <= settings.positionGateChiSquare else { return }
        filter = shifted
        before.shiftPosition(east: step.east, north: step.north)
    }
}
