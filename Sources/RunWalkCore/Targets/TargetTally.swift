/// Time in, below and above a phase's band, over the phase's active time (pauses excluded).
///
/// Each stretch between two observations counts on the side seen at its start (sample and
/// hold). Time without a value counts as below: for pace, standing still is slower than any
/// band; for heart rate, time before the first reading. At the phase's end the last stretch
/// is closed with the phase's own active duration, so the three add up to it exactly.
public struct TargetTally: Sendable, Equatable {
    /// The three times for one phase, seconds.
    public struct Times: Sendable, Equatable {
        public var inSeconds = 0.0
        public var belowSeconds = 0.0
        public var aboveSeconds = 0.0

        public init(inSeconds: Double = 0, belowSeconds: Double = 0, aboveSeconds: Double = 0) {
            self.inSeconds = inSeconds
            self.belowSeconds = belowSeconds
            self.aboveSeconds = aboveSeconds
        }

        public var totalSeconds: Double { inSeconds + belowSeconds + aboveSeconds }

        mutating func add(_ seconds: Double, to state: TargetState) {
            switch state {
            case .in: inSeconds += seconds
            case .below: belowSeconds += seconds
            case .above: aboveSeconds += seconds
            }
        }
    }

    /// The band of the phase being counted (nil: no band, nothing counted).
    public private(set) var band: TargetBand?
    /// What has been counted so far in the current phase.
    public private(set) var current = Times()
    /// The side seen last.
    public private(set) var state: TargetState = .below
    private var lastActiveSeconds = 0.0

    public init() {}

    /// A phase begins with this band (or none).
    public mutating func begin(band: TargetBand?) {
        self.band = band
        current = Times()
        state = .below
        lastActiveSeconds = 0
    }

    /// The value (nil: none) seen when the phase had run `activeSeconds` (pauses excluded).
    public mutating func observe(_ value: Double?, activeSeconds: Double) {
        guard let band else { return }
        let step = activeSeconds - lastActiveSeconds
        if step > 0 {
            current.add(step, to: state)
            lastActiveSeconds = activeSeconds
        }
        state = value.map { band.state(of: $0) } ?? .below
    }

    /// The phase ended after `activeSeconds`: its times, adding up to `activeSeconds` (nil without a band).
    public mutating func finish(activeSeconds: Double) -> Times? {
        guard band != nil else { return nil }
        var times = current
        let missing = activeSeconds - times.totalSeconds
        if missing >= 0 {
            times.add(missing, to: state)
        } else if times.totalSeconds > 0 {
            // Observations ran past the phase's end (the end lay inside the last stretch): scale down.
            let scale = activeSeconds / times.totalSeconds
            times = Times(inSeconds: times.inSeconds * scale, belowSeconds: times.belowSeconds * scale,
                          aboveSeconds: times.aboveSeconds * scale)
        }
        begin(band: nil)
        return times
    }
}
