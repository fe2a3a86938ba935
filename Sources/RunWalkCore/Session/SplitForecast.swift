/// When the next split is reached between two fixes: "Kilometre k" is said where the runner is
/// at the kilometre, not up to a fix interval later.
///
/// After a fix while the workout runs, if the live distance at the filtered speed would pass the
/// next split before the next fix is expected, the split is due at the predicted instant
/// (distance to go / speed after that fix). The session says it then (the loop wakes for it; a
/// replay says it before the next fix that comes after it); if the next fix comes first, the
/// prediction is dropped and that fix completes the split as before. Pure: times are session
/// clock seconds, the caller says what the fix and the distance were.
public struct SplitForecast: Sendable, Equatable {
    /// Receiver intervals shorter than this are not predicted for: the next fix comes so soon
    /// that waiting for it costs a fraction of a metre (a 10 Hz receiver's splits are unchanged).
    public static let minimumIntervalSeconds = 0.5
    /// Receiver intervals longer than this are not predicted over (a slow receiver, or the
    /// interval just bridged a gap: the next fix's time is not known).
    public static let maximumIntervalSeconds = 2.0

    /// Session clock seconds at which the next split is due, nil when none is predicted.
    public private(set) var dueSeconds: Double?
    /// The receiver's time of the last position fix.
    private var lastFixTime: UTCTime?
    /// Seconds between the receiver's last two position fixes.
    public private(set) var intervalSeconds: Double?

    public init() {}

    /// A position fix taken at the receiver's `time`: its interval is the one the next fix is
    /// expected after. Any pending prediction is dropped (the fix completes the split, or
    /// predicts again).
    public mutating func observe(fixTakenAt time: UTCTime) {
        dueSeconds = nil
        if let last = lastFixTime, time > last { intervalSeconds = time.since(last).seconds }
        if lastFixTime.map({ time > $0 }) ?? true { lastFixTime = time }
    }

    /// After a used fix that arrived at `seconds` while the workout runs: the live distance is
    /// `distanceMetres`, the next split is at `nextSplitMetres`, and the runner moves at the
    /// filtered `speed` (m/s; zero or `stationary` while standing). Predicts the split when it
    /// falls before the next fix is expected; returns the instant, nil when none is predicted.
    @discardableResult
    public mutating func predict(atSeconds seconds: Double, distanceMetres: Double, nextSplitMetres: Double,
                                 speed: Double, stationary: Bool, minimumSpeed: Double) -> Double? {
        dueSeconds = nil
        guard !stationary, speed.isFinite, speed >= minimumSpeed, speed > 0,
              let interval = intervalSeconds,
              interval >= Self.minimumIntervalSeconds, interval <= Self.maximumIntervalSeconds else { return nil }
        let toGo = nextSplitMetres - distanceMetres
        guard toGo > 0 else { return nil }
        let ahead = toGo / speed
        // Only within the wait for the next fix: a prediction never runs past what one interval
        // at the filtered speed covers.
        guard ahead < interval else { return nil }
        dueSeconds = seconds + ahead
        return dueSeconds
    }

    /// Drops a pending prediction (pause, resume, skip, restart, stop, the GPS lost).
    public mutating func cancel() {
        dueSeconds = nil
    }
}
