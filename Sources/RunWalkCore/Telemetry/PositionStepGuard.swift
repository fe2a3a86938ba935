/// Without Doppler, tells a step of the receiver's position from the runner's motion.
///
/// Between tall buildings a receiver's position carries a bias from reflected (non-line-of-sight)
/// signals that steps by 10–25 m when the satellites used or the street change, and stays. With
/// Doppler the speed says the runner did not move; without it the filter takes every step as
/// motion, and the distance grows by the step. A fix's move from the last used fix, less what the
/// filter's velocity explains, is a few metres for the runner's motion at 1 Hz (a turn, a change
/// of pace, a stop), and a fraction of that at 10 Hz; a larger one is the receiver's — or a one-fix
/// outlier. So the fix is held back (not applied), and the fix after it decides: when its offset
/// from the filter's prediction is the held one's again, the receiver stepped, and the filter's
/// position is shifted by the step, its velocity kept, the shift not counted as progress; when
/// it is not (an outlier that came back, or motion after all), the held fix stays unused and the
/// next one is taken as it comes.
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
    /// The held fix's offset from the filter's prediction, metres.
    var pending: (east: Double, north: Double)?

    /// How far a fix's offset may differ from the held one's and still confirm the step, metres
    /// (half the threshold confirmed too few in the canyon, whose fixes scatter by metres).
    var confirmMetres: Double { thresholdMetres }

    init(thresholdMetres: Double, maximumMetres: Double) {
        self.thresholdMetres = thresholdMetres
        self.maximumMetres = maximumMetres
    }

    /// The last used fix (the filter started, relocked or took it).
    mutating func record(time: Double, east: Double, north: Double) {
        last = (time, east, north)
    }

    /// Whether the fix at `east`, `north` (time `time`), given the filter predicted to it, is a
    /// step: its move from the last used fix less the filter's velocity over the interval is more
    /// than motion explains (and no more than `maximumMetres`), and the filter lies behind the fix
    /// along it (a filter already past it took the move as motion).
    func isStep(time: Double, east: Double, north: Double, predicted filter: ConstantVelocityFilter) -> Bool {
        guard thresholdMetres.isFinite, let last, time > last.time else { return false }
        let dt = time - last.time
        let de = east - last.east - filter.velocityEast * dt
        let dn = north - last.north - filter.velocityNorth * dt
        let velocitySigma = max(0, filter.covariance[2, 2] + filter.covariance[3, 3]).squareRoot()
        let allowed = thresholdMetres + Self.velocitySigmas * velocitySigma * dt + Self.accelerationMetresPerSecondSquared * dt * dt / 2
        let size = (de * de + dn * dn).squareRoot()
        guard size > allowed, size <= maximumMetres else { return false }
        return (east - filter.east) * de + (north - filter.north) * dn > 0
    }
}

extension Telemetry {
    /// Without Doppler, screens the fix for a step of the receiver's position (`PositionStepGuard`):
    /// returns true when the fix is held back (not to be applied), and shifts the predicted filter
    /// (and the estimate the fix's progress counts from) when the fix confirms a held step.
    mutating func screenStep(_ filter: inout ConstantVelocityFilter, from before: inout ConstantVelocityFilter, east: Double, north: Double,
                             time: Double, dt: Double, doppler: Double?) -> Bool {
        guard doppler == nil, dt <= settings.gapSeconds else {
            stepGuard.pending = nil
            return false
        }
        let offset = (east: east - filter.east, north: north - filter.north)
        if let held = stepGuard.pending {
            stepGuard.pending = nil
            let de = offset.east - held.east, dn = offset.north - held.north
            if (de * de + dn * dn).squareRoot() <= stepGuard.confirmMetres {
                let shift = (east: (offset.east + held.east) / 2, north: (offset.north + held.north) / 2)
                filter.shiftPosition(east: shift.east, north: shift.north)
                before.shiftPosition(east: shift.east, north: shift.north)
                return false
            }
        }
        guard stepGuard.isStep(time: time, east: east, north: north, predicted: filter) else { return false }
        stepGuard.pending = offset
        return true
    }
}
