/// The receiver's fix mode, as gpsd numbers it.
public enum FixMode: Int, Sendable, Codable, Comparable {
    case noFix = 1, twoD = 2, threeD = 3
    public static func < (a: FixMode, b: FixMode) -> Bool { a.rawValue < b.rawValue }
}

/// One epoch's fix: everything the receiver said about one instant.
///
/// Values the receiver did not give are nil. Units are SI: metres, metres per second,
/// degrees clockwise from true north for the course.
public struct Fix: Sendable, Equatable {
    /// When the receiver measured this fix (UTC).
    public var time: UTCTime
    /// Whether the date is known (RMC or ZDA seen) or assumed (time-only logs).
    public var dateKnown: Bool
    /// WGS-84 latitude and longitude, degrees (north and east positive).
    public var latitude: Double?
    public var longitude: Double?
    /// Altitude above mean sea level (GGA).
    public var altitudeMSL: Double?
    /// Geoid separation (GGA): height of the geoid above the ellipsoid.
    public var geoidSeparation: Double?
    /// Speed over ground from the receiver's Doppler (RMC/VTG).
    public var speedMetresPerSecond: Double?
    /// Course over ground from the receiver (RMC/VTG), degrees from true north.
    public var courseDegrees: Double?
    /// 2D/3D fix mode (GSA, else inferred as gpsd does).
    public var mode: FixMode?
    /// GGA fix quality (0 invalid, 1 GPS, 2 DGPS, 4/5 RTK, 6 dead reckoning …).
    public var quality: Int?
    /// Horizontal, vertical and position dilution of precision (GGA/GSA).
    public var hdop: Double?
    public var vdop: Double?
    public var pdop: Double?
    /// Satellites used in the solution (GGA/GNS).
    public var satellitesUsed: Int?
    /// Satellites in view (GSV).
    public var satellitesVisible: Int?
    /// GST standard deviations of the position error, metres.
    public var latitudeErrorMetres: Double?
    public var longitudeErrorMetres: Double?
    public var altitudeErrorMetres: Double?
    /// Estimated horizontal and vertical position error (gpsd's eph/epv, 95 %), metres.
    public var horizontalErrorMetres: Double?
    public var verticalErrorMetres: Double?
    /// The first fix of a new track segment (a track file's new segment or track, or a pause
    /// marker before it): the telemetry does not bridge the gap before it, so it adds no distance.
    public var startsSegment = false
    /// The heart rate recorded with this point (a watch's GPX, TCX or FIT file), beats per minute;
    /// nil when there is none (a 0 or 255 in the file is none).
    public var heartRateBPM: Int?
    /// The beat-to-beat (RR) intervals that go with `heartRateBPM` (a FIT file's `hrv` beats since
    /// the previous such point), seconds; empty when the file has none.
    public var heartRateRRSeconds: [Double] = []

    /// An empty fix at `time`; the decoder fills in what the sentences carry.
    public init(time: UTCTime, dateKnown: Bool = true) {
        self.time = time
        self.dateKnown = dateKnown
    }

    /// The fix has a usable horizontal position.
    public var hasPosition: Bool {
        guard let latitude, let longitude else { return false }
        if let mode, mode < .twoD { return false }
        if quality == 0 { return false }
        return latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}
