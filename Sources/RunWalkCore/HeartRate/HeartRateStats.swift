/// Average, maximum and time in zones of the heart-rate samples in a stretch of time.
///
/// Each sample holds until the next one, at most `holdSeconds`: a strap that went quiet (lost,
/// out of range) leaves a gap that counts in no average and no zone.
public struct HeartRateStats: Sendable, Equatable {
    /// How long one sample stands for at most, seconds.
    public static let holdSeconds = 5.0

    /// Time-weighted average, beats per minute (one decimal).
    public var averageBPM: Double
    /// The highest sample.
    public var maxBPM: Int
    /// Seconds in each zone, zone 1 first (one decimal each).
    public var zoneSeconds: [Double]
    /// Seconds with heart rate.
    public var coveredSeconds: Double

    /// The figures of `samples` (time order, seconds on one clock) from `start` up to `end`;
    /// nil when none of them covers any time there.
    public init?(samples: [HeartRateSample], from start: Double, to end: Double, zones: HeartRateZones) {
        guard end > start else { return nil }
        var weighted = 0.0
        var covered = 0.0
        var maxBPM: Int?
        var zoneSeconds = [Double](repeating: 0, count: HeartRateZones.count)
        var lower = samples.startIndex
        var upper = samples.endIndex
        // Samples are in time order: find the stretch by binary search, keeping one before `start`.
        while lower < upper {
            let middle = (lower + upper) / 2
            if samples[middle].seconds < start { lower = middle + 1 } else { upper = middle }
        }
        var index = max(samples.startIndex, lower - 1)
        while index < samples.endIndex, samples[index].seconds < end {
            let sample = samples[index]
            let next = index + 1 < samples.endIndex ? samples[index + 1].seconds : sample.seconds + Self.holdSeconds
            let from = max(start, sample.seconds)
            let to = min(end, next, sample.seconds + Self.holdSeconds)
            if to > from {
                let span = to - from
                weighted += span * Double(sample.bpm)
                covered += span
                zoneSeconds[zones.zone(of: sample.bpm) - 1] += span
                maxBPM = Swift.max(maxBPM ?? sample.bpm, sample.bpm)
            }
            index += 1
        }
        guard covered > 0, let maxBPM else { return nil }
        averageBPM = Summary.rounded(weighted / covered, digits: 1)
        self.maxBPM = maxBPM
        self.zoneSeconds = zoneSeconds.map { Summary.rounded($0, digits: 1) }
        coveredSeconds = covered
    }
}

/// Aerobic decoupling: how much the pace bought per heartbeat dropped from the first half of a
/// stretch to the second (Friel's Pa:HR). 5 % or less is a well-paced aerobic effort.
public enum AerobicDecoupling {
    /// The decoupling in percent (positive: the heart worked harder for the pace in the second
    /// half), from time-ordered (seconds, speed m/s) points and heart-rate samples on the same
    /// clock; nil when either half lacks speed or heart rate.
    public static func percent(speeds: [(seconds: Double, metresPerSecond: Double)], samples: [HeartRateSample],
                               from start: Double, to end: Double) -> Double? {
        guard end > start else { return nil }
        let middle = (start + end) / 2
        guard let first = efficiency(speeds: speeds, samples: samples, from: start, to: middle),
              let second = efficiency(speeds: speeds, samples: samples, from: middle, to: end), first > 0 else { return nil }
        return Summary.rounded((first - second) / first * 100, digits: 1)
    }

    /// Mean speed over mean heart rate in a stretch.
    private static func efficiency(speeds: [(seconds: Double, metresPerSecond: Double)], samples: [HeartRateSample],
                                   from start: Double, to end: Double) -> Double? {
        let inside = speeds.filter { $0.seconds >= start && $0.seconds < end }.map(\.metresPerSecond)
        guard !inside.isEmpty,
              let stats = HeartRateStats(samples: samples, from: start, to: end, zones: .standard) else { return nil }
        let speed = inside.reduce(0, +) / Double(inside.count)
        return speed / stats.averageBPM
    }
}
