import RunWalkCore

/// Auto-pause: standing still for a few seconds pauses the workout; moving again resumes it.
///
/// "Standing" is the telemetry's own verdict (speed under its stationary threshold, which a
/// walk never is), held for `standSeconds`; "moving" is a speed of at least `moveSpeed` for
/// `moveSeconds`. Pure: fed every telemetry update with its clock time.
public struct AutoPause: Sendable, Equatable {
    /// What the detector asks for.
    public enum Decision: Sendable, Equatable { case pause, resume }

    /// Standing this long pauses, seconds.
    public var standSeconds = 5.0
    /// Moving at least this fast…, metres per second (a slow walk is about 0.9).
    public var moveSpeed = 0.7
    /// …for this long resumes, seconds.
    public var moveSeconds = 2.0

    private var standingSince: Double?
    private var movingSince: Double?

    public init() {}

    /// Feeds one update at `seconds`; `autoPaused` says whether auto-pause holds the workout now.
    public mutating func update(_ update: TelemetryUpdate, at seconds: Double, autoPaused: Bool) -> Decision? {
        guard update.accepted else { return nil }
        let speed = update.speedMetresPerSecond ?? 0
        if autoPaused {
            standingSince = nil
            guard speed >= moveSpeed, !update.stationary else {
                movingSince = nil
                return nil
            }
            let since = movingSince ?? seconds
            movingSince = since
            return seconds - since >= moveSeconds ? .resume : nil
        }
        movingSince = nil
        guard update.stationary else {
            standingSince = nil
            return nil
        }
        let since = standingSince ?? seconds
        standingSince = since
        return seconds - since >= standSeconds ? .pause : nil
    }

    /// Forgets what was seen (after the runner's own pause or resume).
    public mutating func reset() {
        standingSince = nil
        movingSince = nil
    }
}
