/// Turns smoothed steps, oldest first, into the smoothed cumulative distance, keeping only the
/// few seconds of steps a gap's bridge looks at: the same rules, in the same arithmetic, as a
/// pass over the whole run (the live distance's: trapezoids of the speeds, nothing across a
/// segment break, a gap bridged by the mean speeds on either side and its chord).
struct SmoothedDistanceReducer: Sendable {
    /// What the distance needs of one smoothed step.
    struct Step: Sendable {
        /// Seconds since the first fix.
        var time: Double
        /// Smoothed speed, metres per second (zero while standing).
        var speed: Double
        /// Smoothed position (east, north), metres: the chord of a gap that ends here.
        var east, north: Double
        /// East position variance, metres²: the chord's slack.
        var positionVariance: Double
        /// Whether the step starts a new track segment (no distance across the break).
        var startsSegment: Bool
    }

    /// Steps longer apart than this are a gap, seconds.
    let gapSeconds: Double
    /// Steps not yet reduced, and the last ones a gap's backward mean may still read.
    private var steps = ChunkedArray<Step>()
    /// Index (over the whole run) of `steps[0]`.
    private var firstIndex = 0
    /// Index of the next step whose cumulative distance is due.
    private var next = 0
    /// Cumulative distance at step `next - 1`, metres.
    private var cumulative = 0.0

    init(gapSeconds: Double) {
        self.gapSeconds = gapSeconds
    }

    /// Steps held in memory (the test of a bounded history counts them).
    var retainedCount: Int { steps.count }

    /// Adds the next step, oldest first.
    mutating func add(_ step: Step) {
        steps.append(step)
    }

    /// Emits (seconds since the first fix, cumulative metres) for every step whose distance is
    /// settled: all of them when `final` (nothing follows), else all but those a gap's forward
    /// mean still needs later steps for. Then forgets the steps no later gap can read.
    mutating func advance(final: Bool, emit: (Double, Double) -> Void) {
        let end = firstIndex + steps.count
        while next < end {
            let k = next
            let value: Double
            if k == 0 {
                value = 0
            } else {
                let step = self[k], previous = self[k - 1]
                let dt = step.time - previous.time
                if step.startsSegment {
                    value = cumulative
                } else if dt > gapSeconds {
                    let before = previous.speed == 0 ? 0 : meanSpeed(from: k - 1, step: -1, final: final)
                    // The speeds after a gap are a later step's business until enough of them are settled.
                    guard let before, let after = step.speed == 0 ? 0 : meanSpeed(from: k, step: 1, final: final) else { break }
                    let chord = ((step.east - previous.east) * (step.east - previous.east)
                        + (step.north - previous.north) * (step.north - previous.north)).squareRoot()
                    let variance = previous.positionVariance + step.positionVariance
                    value = cumulative + GapBridge(durationSeconds: dt, speedBefore: before, speedAfter: after, chordMetres: chord,
                                                   slackMetres: variance.squareRoot(), stopTakesChord: true).estimateMetres
                } else {
                    value = cumulative + dt * (previous.speed + step.speed) / 2
                }
            }
            emit(self[k].time, value)
            cumulative = value
            next = k + 1
        }
        trim()
    }

    private subscript(k: Int) -> Step { steps[k - firstIndex] }

    /// Drops steps older than the next one's predecessor by more than a backward mean can reach:
    /// it walks at most `GapBridge.refineSeconds` plus one step of at most `gapSeconds` (a second
    /// more kept against rounding), so a dropped step is one the walk would have stopped before.
    private mutating func trim() {
        guard next >= 2, next - 1 > firstIndex else { return }
        let horizon = self[next - 1].time - (GapBridge.refineSeconds + gapSeconds + 1)
        var drop = 0
        while firstIndex + drop < next - 1, steps[drop].time < horizon { drop += 1 }
        steps.removeFirst(drop)
        firstIndex += drop
    }

    /// The time-weighted mean speed over up to `GapBridge.refineSeconds` of moving steps from
    /// step `k` away from a gap (`step` −1: backwards), stopping at a stop or another gap; nil
    /// when the walk forwards reaches steps not added yet and more may come (not `final`).
    private func meanSpeed(from k: Int, step: Int, final: Bool) -> Double? {
        var metres = 0.0, seconds = 0.0, i = k
        let end = firstIndex + steps.count
        while seconds < GapBridge.refineSeconds {
            let j = i + step
            if j >= end && !final { return nil }
            // Steps before `firstIndex` were dropped because the walk cannot reach them.
            guard j >= firstIndex, j < end, self[j].speed > 0 else { break }
            let m = max(i, j)
            let dt = self[m].time - self[m - 1].time
            guard dt <= gapSeconds else { break }
            metres += dt * (self[i].speed + self[j].speed) / 2
            seconds += dt
            i = j
        }
        return seconds > 0 ? metres / seconds : self[k].speed
    }
}
