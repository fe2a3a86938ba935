/// One point of the recorded track, as reports, exports and the store use it.
public struct TrackPoint: Sendable, Equatable, Codable {
    /// Seconds since the workout's start.
    public var elapsedSeconds: Double
    public var time: UTCTime
    /// The estimated (filtered) position.
    public var latitude: Double
    public var longitude: Double
    public var altitudeMSL: Double?
    /// Active distance since the workout's start, metres.
    public var distanceMetres: Double
    public var speedMetresPerSecond: Double?
    public var paceSecondsPerKm: Double?
    /// The phase running when the point was taken (nil before the start or after the end).
    public var phaseIndex: Int?
    /// The receiver's own position for this epoch.
    public var rawLatitude: Double?
    public var rawLongitude: Double?
    /// True for the first point after a GPS gap (a new track segment).
    public var afterGap: Bool
    /// The receiver's horizontal dilution of precision for this epoch, when it gave one
    /// (exports carry it so a re-imported track is weighed as the original was).
    public var hdop: Double?
    /// The heart rate at this point, beats per minute: the file's own (replay of a watch's
    /// track) or the strap's latest sample when it is at most `HeartRateStats.holdSeconds` old.
    public var heartRateBPM: Int?

    public init(elapsedSeconds: Double, time: UTCTime, latitude: Double, longitude: Double, altitudeMSL: Double? = nil,
                distanceMetres: Double, speedMetresPerSecond: Double? = nil, paceSecondsPerKm: Double? = nil,
                phaseIndex: Int? = nil, rawLatitude: Double? = nil, rawLongitude: Double? = nil, afterGap: Bool = false,
                hdop: Double? = nil) {
        self.elapsedSeconds = elapsedSeconds
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMSL = altitudeMSL
        self.distanceMetres = distanceMetres
        self.speedMetresPerSecond = speedMetresPerSecond
        self.paceSecondsPerKm = paceSecondsPerKm
        self.phaseIndex = phaseIndex
        self.rawLatitude = rawLatitude
        self.rawLongitude = rawLongitude
        self.afterGap = afterGap
        self.hdop = hdop
    }
}
