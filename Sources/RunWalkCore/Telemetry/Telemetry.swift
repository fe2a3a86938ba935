/// What the telemetry made of one fix.
public struct TelemetryUpdate: Sendable, Equatable {
    public var time: UTCTime
    /// Whether the fix was used (it had a position and passed the gates).
    public var accepted: Bool
    /// Total distance so far, metres.
    public var distanceMetres: Double
    /// Smoothed speed, metres per second.
    public var speedMetresPerSecond: Double?
    /// Current pace (EMA), seconds per kilometre; nil while standing.
    public var paceSecondsPerKm: Double?
    /// The estimated position.
    public var latitude: Double?
    public var longitude: Double?
    public var altitudeMSL: Double?
    /// The receiver's fix this update was made from (the recorder stores raw beside filtered values).
    public var raw: Fix?
}

/// Settings of the distance and pace estimation.
public struct TelemetrySettings: Sendable, Equatable {
    /// Time constant of the pace EMA, seconds.
    public var paceTimeConstantSeconds: Double = 6
    /// Faster than this between fixes is an outlier, metres per second.
    public var maximumSpeed: Double = 12
    /// User-equivalent range error, metres, to turn HDOP into a position sigma.
    public var userRangeErrorMetres: Double = 4

    public init() {}
}

/// Turns fixes into distance and pace.
///
/// A first estimator: positions on a local plane, outliers gated by the speed they
/// imply, movement accrued only once it exceeds the position noise. The Kalman filter
/// replaces the position step.
public struct Telemetry: Sendable {
    public let settings: TelemetrySettings
    public private(set) var distanceMetres = 0.0
    public private(set) var pace: PaceEMA
    private var plane: LocalPlane?
    private var anchor: (east: Double, north: Double, time: UTCTime)?
    private var lastAccepted: (east: Double, north: Double, time: UTCTime)?

    public init(settings: TelemetrySettings = TelemetrySettings()) {
        self.settings = settings
        pace = PaceEMA(timeConstantSeconds: settings.paceTimeConstantSeconds)
    }

    /// Feeds one epoch's fix.
    public mutating func ingest(_ fix: Fix) -> TelemetryUpdate {
        var update = TelemetryUpdate(time: fix.time, accepted: false, distanceMetres: distanceMetres)
        guard fix.hasPosition, let lat = fix.latitude, let lon = fix.longitude else { return update }
        let plane = self.plane ?? LocalPlane(originLatitude: lat, originLongitude: lon)
        self.plane = plane
        let p = plane.project(latitude: lat, longitude: lon)
        if let last = lastAccepted {
            let dt = fix.time.since(last.time).seconds
            let jump = ((p.east - last.east) * (p.east - last.east) + (p.north - last.north) * (p.north - last.north)).squareRoot()
            if dt <= 0 || jump / dt > settings.maximumSpeed { return update }
        }
        lastAccepted = (p.east, p.north, fix.time)
        let sigma = (fix.hdop ?? 1.5) * settings.userRangeErrorMetres / 2
        if let a = anchor {
            let step = ((p.east - a.east) * (p.east - a.east) + (p.north - a.north) * (p.north - a.north)).squareRoot()
            if step >= max(2, sigma) {
                distanceMetres += step
                anchor = (p.east, p.north, fix.time)
            }
        } else {
            anchor = (p.east, p.north, fix.time)
        }
        let clock = Duration.milliseconds(fix.time.milliseconds)
        if let speed = fix.speedMetresPerSecond {
            pace.add(speedMetresPerSecond: speed, at: clock)
        }
        update.accepted = true
        update.distanceMetres = distanceMetres
        update.speedMetresPerSecond = pace.speedMetresPerSecond
        update.paceSecondsPerKm = pace.paceSecondsPerKm
        update.latitude = lat
        update.longitude = lon
        update.altitudeMSL = fix.altitudeMSL
        return update
    }
}
