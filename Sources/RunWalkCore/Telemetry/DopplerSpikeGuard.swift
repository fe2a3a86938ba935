/// Holds back a Doppler speed that leaps away from the filtered speed until the next fix says
/// whether the runner changed speed or the receiver glitched for one epoch.
///
/// Between tall buildings a receiver now and then reports one speed 1–3 m/s off (a reflected
/// carrier's Doppler) and the next one back where it was. The filter follows a Doppler speed
/// almost fully within one fix, so each such spike was integrated into the distance, and since
/// a disturbed velocity vector mostly comes out longer, they added up (+0.5 % in the urban
/// canyon). A leap is not applied at once: the fix's speed is given no weight (`holding`). If the
/// next reading comes back more than half way, the leap was a spike and is dropped; otherwise it
/// was real, and the distance the hold missed is owed back, so a true change of pace costs one
/// fix of lag in the speed and nothing in the distance.
struct DopplerSpikeGuard: Sendable {
    /// A reading farther than this from the filtered speed is held back, metres per second.
    /// A runner's speed changes by at most about 1.5 m/s within a second (a walk-to-run ramp at
    /// its steepest, a stop at a light); the noise of a Doppler speed is 0.05–0.4 m/s.
    let leapMetresPerSecond: Double
    /// Fixes further apart than this are not compared (a gap: the speed may have changed).
    let maximumIntervalSeconds: Double
    /// Below this filtered speed (m/s) the runner is starting off, and nothing is held.
    static let minimumReferenceMetresPerSecond = 1.0
    private var held: (reading: Double, reference: Double, seconds: Double)?

    init(leapMetresPerSecond: Double, maximumIntervalSeconds: Double) {
        self.leapMetresPerSecond = leapMetresPerSecond
        self.maximumIntervalSeconds = maximumIntervalSeconds
    }

    /// Whether the reading just screened is held back (the filter gives it no weight).
    var holding: Bool { held != nil }

    /// The reading to apply for this fix (with no weight while `holding`), adding to `owed` the
    /// metres a confirmed leap's hold missed (at `reference`, the filtered speed before it).
    mutating func screen(_ doppler: Double?, reference: Double, moving: Bool, intervalSeconds dt: Double,
                         owed: inout Double) -> Double? {
        let pending = held
        held = nil
        guard let speed = doppler, dt <= maximumIntervalSeconds else { return doppler }
        if let pending {
            // Came back more than half way: a spike, dropped. Otherwise the runner's own change.
            if abs(speed - pending.reference) >= abs(pending.reading - pending.reference) / 2 {
                owed += (pending.reading - pending.reference) * pending.seconds
            }
            return speed
        }
        // Only upward (a disturbed velocity vector mostly comes out longer), and only from a walk
        // or faster: a steep fall is a stop at a light, a steep rise from under a walk the start
        // from it; holding those would distort the offline smoother's stops (it sees the held fix).
        guard moving, reference >= Self.minimumReferenceMetresPerSecond, leapMetresPerSecond.isFinite,
              speed - reference > leapMetresPerSecond else { return speed }
        held = (speed, reference, dt)
        return speed
    }
}
