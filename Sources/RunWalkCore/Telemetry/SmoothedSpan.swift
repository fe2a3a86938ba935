/// The smoothed distance over one span of the run (a workout's phases, `start`…end) and the
/// splits from it, built as the smoothed cumulative distance comes in, oldest first, so that
/// nothing is kept per step. The figures are those of the whole-run series interpolated at the
/// span's ends, in the same arithmetic: the series' value at the start is subtracted, every
/// point strictly inside the span is a split sample, and the end is interpolated.
///
/// Points are taken as they are settled, before the span's end is known: every point settled
/// while the workout runs lies before its end (points settle minutes behind the newest fix).
/// Once the end is known (`end`), later points only serve to interpolate it.
public struct SmoothedSpan: Sendable {
    /// The span's start, seconds since the first fix.
    let start: Double
    /// The splits' clock (seconds from the workout's start) at the span's start.
    let elapsedOffset: Double
    private var tracker: SplitTracker
    /// The first point taken, and the latest.
    private var first: (seconds: Double, metres: Double)?
    private var latest: (seconds: Double, metres: Double)?
    /// The series' value at `start`, once a point after it came.
    private var base: Double?
    /// The span's end, seconds since the first fix, once known.
    var end: Double?
    /// The first point after the end.
    private var after: (seconds: Double, metres: Double)?

    /// A span from `start` (seconds since the first fix), its splits every `splitUnitMetres`
    /// on a clock that reads `elapsedOffset` at the start.
    init(start: Double, elapsedOffset: Double, splitUnitMetres: Double) {
        self.start = start
        self.elapsedOffset = elapsedOffset
        tracker = SplitTracker(unitMetres: splitUnitMetres)
    }

    /// Takes the next point of the series (seconds since the first fix, cumulative metres): a
    /// split sample inside the span, the end's neighbour after it.
    mutating func take(_ seconds: Double, _ metres: Double) {
        guard let end else { return take(seconds, metres, sampled: true) }
        if seconds > end {
            if after == nil { after = (seconds, metres) }
            return
        }
        take(seconds, metres, sampled: seconds < end)
    }

    /// Takes a point at or before the end; a split sample unless `sampled` is false (a point
    /// exactly at the span's end).
    private mutating func take(_ seconds: Double, _ metres: Double, sampled: Bool) {
        defer {
            latest = (seconds, metres)
            if first == nil { first = latest }
        }
        if base == nil {
            guard seconds > start else { return }
            // The first point after the start: the start lies between it and the one before.
            setBase(latest.map { Self.interpolate(from: $0, to: (seconds, metres), at: start) } ?? metres)
        }
        guard sampled, let base else { return }
        _ = tracker.add(elapsedSeconds: elapsedOffset + (seconds - start), distanceMetres: metres - base)
    }

    private mutating func setBase(_ value: Double) {
        base = value
        _ = tracker.add(elapsedSeconds: elapsedOffset + 0, distanceMetres: 0)
    }

    /// The span's distance (metres) and splits when it ends at `end` (seconds since the first
    /// fix, after the start), with `rest` the points not taken yet, oldest first; nil when the
    /// series is empty.
    func finished(at end: Double, rest: ChunkedArray<SmoothedPoint>) -> (distanceMetres: Double, splits: [Split])? {
        var span = self
        if let known = span.end, known != end { return nil }
        span.end = end
        for index in rest.indices where span.after == nil { span.take(rest[index].seconds, rest[index].metres) }
        let after = span.after
        // `latest` is now the last point at or before the end.
        guard let first = span.first ?? after else { return nil }
        if span.base == nil {
            // No point after the start up to the end: the start lies before the first point, between
            // the last one and the first after the end, or after every point.
            if span.start <= first.seconds {
                span.setBase(first.metres)
            } else if let latest = span.latest, let after {
                span.setBase(Self.interpolate(from: latest, to: after, at: span.start))
            } else {
                span.setBase(span.latest?.metres ?? first.metres)
            }
        }
        let endValue: Double
        if end <= first.seconds {
            endValue = first.metres
        } else if let latest = span.latest, let after {
            endValue = Self.interpolate(from: latest, to: after, at: end)
        } else {
            endValue = span.latest?.metres ?? first.metres
        }
        let total = endValue - (span.base ?? 0)
        _ = span.tracker.add(elapsedSeconds: span.elapsedOffset + (end - span.start), distanceMetres: total)
        return (total, span.tracker.splits)
    }

    /// The series between two of its points, linearly (as a binary search over it would).
    private static func interpolate(from lo: (seconds: Double, metres: Double), to hi: (seconds: Double, metres: Double),
                                    at time: Double) -> Double {
        let span = hi.seconds - lo.seconds
        let fraction = span > 0 ? (time - lo.seconds) / span : 0
        return lo.metres + (hi.metres - lo.metres) * fraction
    }
}

/// Where the smoothed cumulative distance goes as steps settle: kept whole (a plain
/// `Telemetry`, for tools that ask for the series) or folded into a session's span.
enum SmoothedDistanceSink: Sendable {
    /// Every point, (seconds since the first fix, cumulative metres): 16 bytes a step.
    case series(ChunkedArray<SmoothedPoint>)
    /// Only the span's running figures.
    case span(SmoothedSpan)

    /// Takes the next point.
    mutating func take(_ seconds: Double, _ metres: Double) {
        switch self {
        case .series(var points):
            self = .series(ChunkedArray())
            points.append(SmoothedPoint(seconds: seconds, metres: metres))
            self = .series(points)
        case .span(var span):
            span.take(seconds, metres)
            self = .span(span)
        }
    }

    /// Points held in memory.
    var retainedCount: Int {
        if case .series(let points) = self { return points.count }
        return 0
    }
}

/// One point of the smoothed cumulative distance.
struct SmoothedPoint: Sendable {
    /// Seconds since the first fix.
    var seconds: Double
    /// Cumulative smoothed distance, metres.
    var metres: Double
}
