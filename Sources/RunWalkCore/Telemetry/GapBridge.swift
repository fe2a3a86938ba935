/// The distance over a gap in the fixes (no fix for seconds).
///
/// The gap is bridged by the speeds on either side over its duration, but no less than the
/// straight line between its ends and no more than a half circle over that line. The speed
/// just after a gap is a single noisy sample, so once a few seconds of speeds after the gap
/// are in, the estimate is refined and the difference is handed back as a correction.
struct GapBridge: Sendable {
    let durationSeconds: Double
    let speedBefore: Double
    let chordMetres: Double
    let slackMetres: Double
    /// With a stop on one side, take the straight line when it is shorter than the moving
    /// side's speed over the whole gap (offline, where both ends are smoothed positions).
    let stopTakesChord: Bool
    /// What was added for the gap so far.
    private(set) var estimateMetres: Double
    private var secondsAfter = 0.0
    private var metresAfter = 0.0

    /// Seconds of speeds after the gap that refine the estimate.
    static let refineSeconds = 10.0

    init(durationSeconds: Double, speedBefore: Double, speedAfter: Double, chordMetres: Double, slackMetres: Double,
         stopTakesChord: Bool = false) {
        self.stopTakesChord = stopTakesChord
        self.durationSeconds = durationSeconds
        self.speedBefore = speedBefore
        self.chordMetres = chordMetres
        self.slackMetres = slackMetres
        estimateMetres = 0
        estimateMetres = estimate(speedAfter: speedAfter)
    }

    /// Whether the estimate can still be refined (the runner moved on both sides).
    var refinable: Bool { speedBefore > 0 && estimateMetres > 0 }

    /// Adds a step after the gap; returns the correction (metres) once the refinement is done.
    mutating func add(speed: Double, overSeconds dt: Double) -> Double? {
        secondsAfter += dt
        metresAfter += speed * dt
        guard secondsAfter >= Self.refineSeconds else { return nil }
        let refined = estimate(speedAfter: metresAfter / secondsAfter)
        return refined - estimateMetres
    }

    private func estimate(speedAfter: Double) -> Double {
        guard speedBefore > 0, speedAfter > 0 else {
            // A stop on one side (a light at a corner): moving at the other side's speed. That is
            // an upper bound: offline, the straight line to where the runner stood is preferred.
            let bySpeed = durationSeconds * max(speedBefore, speedAfter)
            return stopTakesChord ? max(min(bySpeed, chordMetres), chordMetres - slackMetres) : bounded(bySpeed)
        }
        return bounded(durationSeconds * (speedBefore + speedAfter) / 2)
    }

    private func bounded(_ metres: Double) -> Double {
        min(max(metres, chordMetres - slackMetres), chordMetres * .pi / 2 + slackMetres)
    }
}
