/// Standing detection for a receiver without Doppler speed.
///
/// Without Doppler the filtered speed is all there is, and a wandering position error (a few
/// metres over a minute) keeps it above a walking-pace threshold while the runner stands at a
/// traffic light, so distance accrues. This looks at what the filtered position did over the
/// last `windowSeconds` instead: moved less than the standing radius, the receiver stands (and
/// the distance integrated over the window beyond its straight line is taken back); moved more
/// than the moving radius, it moves again (and the straight line, not counted while standing,
/// is owed).
struct StandingWindow: Sendable, Equatable {
    struct Sample: Sendable, Equatable {
        var time: Double
        var east: Double
        var north: Double
        var distanceMetres: Double
    }

    let windowSeconds: Double
    /// How far back the distance is taken back to when standing is found (the filter without
    /// Doppler overshoots a stop by its lag, and the window is later than that).
    let lookbackSeconds: Double
    /// The filter's states over the last `windowSeconds` or `lookbackSeconds` (the oldest is the
    /// newest one at least that old), without a gap.
    private(set) var samples: [Sample] = []

    init(windowSeconds: Double, lookbackSeconds: Double) {
        self.windowSeconds = windowSeconds
        self.lookbackSeconds = max(windowSeconds, lookbackSeconds)
    }

    /// Forgets the window (a gap, a relock, a Doppler fix, a new segment).
    mutating func reset() {
        samples.removeAll()
    }

    /// Records the filter's state after a fix.
    mutating func record(_ sample: Sample) {
        samples.append(sample)
        while samples.count > 1, samples[1].time <= sample.time - lookbackSeconds { samples.removeFirst() }
    }

    /// The straight line from the newest state at least `seconds` (default `windowSeconds`) old
    /// to `east`/`north` at `time`, and the distance integrated since that state (with
    /// `distanceMetres` so far); nil while the window does not reach that far back.
    func span(time: Double, east: Double, north: Double, distanceMetres: Double, seconds: Double? = nil)
        -> (chord: Double, path: Double)? {
        let back = seconds ?? windowSeconds
        guard let first = samples.last(where: { time - $0.time >= back }) else { return nil }
        let chord = ((east - first.east) * (east - first.east) + (north - first.north) * (north - first.north)).squareRoot()
        return (chord, distanceMetres - first.distanceMetres)
    }
}
