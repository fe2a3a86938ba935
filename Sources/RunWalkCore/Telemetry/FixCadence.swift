/// The interval at which a source delivers positions, learned from the fixes themselves, so
/// that "GPS lost" follows a track recorded every 5 s (a watch's battery mode, "smart
/// recording") as it follows a 1 Hz or 10 Hz receiver.
///
/// Pure: the caller feeds the clock seconds of each fix with a position. The typical interval
/// is the median of the last `window` intervals, so one real gap does not stretch it.
public struct FixCadence: Sendable, Equatable {
    /// How many recent intervals the median is taken over.
    public let window: Int
    private var intervals: [Double] = []
    private var next = 0
    private var lastSeconds: Double?

    /// A cadence over the last `window` intervals.
    public init(window: Int = 15) {
        self.window = max(1, window)
    }

    /// Notes a fix with a position at `seconds` (the session clock); times that do not advance are ignored.
    public mutating func add(seconds: Double) {
        defer { if lastSeconds.map({ seconds > $0 }) ?? true { lastSeconds = seconds } }
        guard let last = lastSeconds, seconds > last else { return }
        if intervals.count < window {
            intervals.append(seconds - last)
        } else {
            intervals[next] = seconds - last
            next = (next + 1) % window
        }
    }

    /// The median of the recent intervals, seconds; nil before two fixes.
    public var typicalIntervalSeconds: Double? {
        guard !intervals.isEmpty else { return nil }
        let sorted = intervals.sorted()
        return sorted[sorted.count / 2]
    }

    /// How long without a position means the GPS is lost: `minimum` (the live setting), or
    /// three typical intervals when the source's own rhythm is slower than that.
    public func lostAfterSeconds(minimum: Double) -> Double {
        max(minimum, 3 * (typicalIntervalSeconds ?? 0))
    }
}
