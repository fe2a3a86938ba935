/// One split: the moment the distance passed a whole unit (km or mile).
public struct Split: Sendable, Equatable, Codable {
    public var index: Int
    public var distanceMetres: Double
    /// Time since the workout start when the split's distance was reached.
    public var elapsedSeconds: Double
    /// Time taken for this split alone.
    public var splitSeconds: Double

    /// A split: the `index`th unit of `distanceMetres`, reached `elapsedSeconds` after the
    /// start and taking `splitSeconds`.
    public init(index: Int, distanceMetres: Double, elapsedSeconds: Double, splitSeconds: Double) {
        self.index = index
        self.distanceMetres = distanceMetres
        self.elapsedSeconds = elapsedSeconds
        self.splitSeconds = splitSeconds
    }

    /// Pace of this split in seconds per kilometre.
    public var paceSecondsPerKm: Double { splitSeconds / (distanceMetres / 1000) }
}

/// Emits splits every `unitMetres`, with the crossing time interpolated between samples.
public struct SplitTracker: Sendable {
    public let unitMetres: Double
    public private(set) var splits: [Split] = []
    private var last: (time: Double, distance: Double)?

    public init(unitMetres: Double = 1000) {
        self.unitMetres = unitMetres
    }

    /// Adds a sample (seconds since start, cumulative metres); returns the splits it completed.
    public mutating func add(elapsedSeconds time: Double, distanceMetres distance: Double) -> [Split] {
        defer { last = (time, max(distance, last?.distance ?? distance)) }
        guard let last, distance > last.distance else { return [] }
        var completed: [Split] = []
        while Double(splits.count + 1) * unitMetres <= distance {
            let target = Double(splits.count + 1) * unitMetres
            let fraction = (target - last.distance) / (distance - last.distance)
            let at = last.time + (time - last.time) * max(0, min(1, fraction))
            let previous = splits.last?.elapsedSeconds ?? 0
            let split = Split(index: splits.count + 1, distanceMetres: unitMetres, elapsedSeconds: at, splitSeconds: at - previous)
            splits.append(split)
            completed.append(split)
        }
        return completed
    }

    /// The distance of the next split, metres.
    public var nextSplitMetres: Double { Double(splits.count + 1) * unitMetres }

    /// Completes the next split at `time` (seconds since start) without a sample: it was
    /// predicted between two samples (`SplitForecast`). Its time never goes before the split
    /// before it; a later sample that reaches the same distance does not complete it again.
    public mutating func complete(atElapsedSeconds time: Double) -> Split {
        let previous = splits.last?.elapsedSeconds ?? 0
        let at = max(time, previous)
        let split = Split(index: splits.count + 1, distanceMetres: unitMetres, elapsedSeconds: at, splitSeconds: at - previous)
        splits.append(split)
        return split
    }
}
