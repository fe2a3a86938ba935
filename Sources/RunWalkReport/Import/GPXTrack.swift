import RunWalkCore

/// A track to write as NMEA (`import`, an unsaved session): its name and its segments of timed points.
public struct GPXTrack: Sendable, Equatable {
    /// One point: position, elevation, time, and speed when the file gives one.
    public struct Point: Sendable, Equatable {
        /// Degrees north.
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double
        /// `<ele>`, metres.
        public var elevationMetres: Double?
        /// `<time>`.
        public var time: UTCTime
        /// `<speed>` (GPX 1.0 or an extension), metres per second.
        public var speedMetresPerSecond: Double?
        /// Horizontal dilution of precision, when the file gives it.
        public var hdop: Double?
        /// Line of the point in the file it came from (0: not from a file).
        public var line: Int

        /// A point made elsewhere than in a GPX file (`line` 0): an unsaved session's fixes.
        public init(latitude: Double, longitude: Double, elevationMetres: Double?, time: UTCTime,
                    speedMetresPerSecond: Double?, hdop: Double?, line: Int = 0) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevationMetres = elevationMetres
            self.time = time
            self.speedMetresPerSecond = speedMetresPerSecond
            self.hdop = hdop
            self.line = line
        }
    }

    /// The track's (or the file's) name.
    public var name: String?
    /// Track segments in order, none empty.
    public var segments: [[Point]]

    /// A track from its name and segments.
    public init(name: String?, segments: [[Point]]) {
        self.name = name
        self.segments = segments
    }

    /// All points in order.
    public var points: [Point] { segments.flatMap { $0 } }
}
