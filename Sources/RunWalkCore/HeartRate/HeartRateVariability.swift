/// Beat-to-beat variability from the RR intervals a strap (or a watch's file) sent: RMSSD, the
/// root mean square of the differences between successive intervals, in milliseconds.
///
/// Only true successions count: an interval that differs from the one before it by more than
/// `artefactFraction` is taken for a missed or extra beat (an artefact) and breaks the run, and so
/// does a stretch where samples stopped coming (`breakSeconds` between two samples: beats were
/// lost in between, so the next interval does not follow the last one).
public struct HeartRateVariability: Sendable, Equatable {
    /// Largest change between successive intervals that is still a heart's, as a fraction of the
    /// earlier one (the usual 20 % rule).
    public static let artefactFraction = 0.2
    /// Samples further apart than this, seconds, do not continue each other's intervals.
    public static let breakSeconds = 2.5
    /// Fewest successive differences worth a figure.
    public static let minimumDifferences = 30

    /// Root mean square of successive differences, milliseconds.
    public var rmssdMilliseconds: Double
    /// The intervals received (artefacts included).
    public var intervals: Int
    /// The successive differences the figure rests on.
    public var differences: Int
    /// Intervals taken for artefacts and left out.
    public var artefacts: Int

    /// The variability of `samples` (time order) from `start` to `end` seconds; nil when fewer
    /// than `minimumDifferences` clean successive differences are there.
    public init?(samples: [HeartRateSample], from start: Double = -.infinity, to end: Double = .infinity) {
        var sumOfSquares = 0.0
        var differences = 0, intervals = 0, artefacts = 0
        var previous: Double?
        var previousTime: Double?
        for sample in samples where sample.seconds >= start && sample.seconds <= end && !sample.rrIntervalsSeconds.isEmpty {
            if let t = previousTime, sample.seconds - t > Self.breakSeconds { previous = nil }
            previousTime = sample.seconds
            for interval in sample.rrIntervalsSeconds {
                intervals += 1
                guard let last = previous else {
                    previous = interval
                    continue
                }
                let difference = interval - last
                if abs(difference) > Self.artefactFraction * last {
                    artefacts += 1
                    previous = nil
                    continue
                }
                sumOfSquares += difference * difference
                differences += 1
                previous = interval
            }
        }
        guard differences >= Self.minimumDifferences else { return nil }
        rmssdMilliseconds = (sumOfSquares / Double(differences)).squareRoot() * 1000
        self.intervals = intervals
        self.differences = differences
        self.artefacts = artefacts
    }
}
