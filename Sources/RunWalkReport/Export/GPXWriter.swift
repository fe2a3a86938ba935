import RunWalkCore

/// Renders a session as GPX 1.1: one track, a new segment after every real gap (GPS lost:
/// longer than three of the track's usual intervals), each point with its time, elevation
/// (when the receiver gave it), HDOP, speed in Garmin's TrackPointExtension v2, and the heart
/// rate in TrackPointExtension v1 (the version every reader knows, valid against its schema).
///
/// Other tools add no distance across a segment break; the session did (it bridged the lost
/// signal), so the first point after such a gap carries `<runwalk:gpsLostBefore>`: RunWalk
/// reading the file back bridges that gap as the session did instead of breaking there.
public enum GPXWriter {
    /// The GPX document.
    public static func render(_ session: RecordedSession, creator: String = "RunWalk") -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<gpx version=\"1.1\" creator=\"\(Text.escaped(creator))\" xmlns=\"http://www.topografix.com/GPX/1/1\""
        out += " xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\""
        if session.hasHeartRate { out += " xmlns:gpxtpx1=\"\(heartRateNamespace)\"" }
        out += " xmlns:runwalk=\"\(extensionNamespace)\""
        out += " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
        out += " xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">\n"
        out += "  <metadata>\n    <name>\(Text.escaped(session.summary.workout))</name>\n"
        if let start = session.startTime { out += "    <time>\(timestamp(start))</time>\n" }
        out += "  </metadata>\n"
        out += "  <trk>\n    <name>\(Text.escaped(session.summary.workout))</name>\n    <type>running</type>\n"
        var open = false
        let breakAfter = segmentBreakSeconds(session.track)
        var previous: TrackPoint?
        for point in session.track {
            defer { previous = point }
            let interval = previous.map { point.elapsedSeconds - $0.elapsedSeconds } ?? 0
            var lostBefore = false
            if (point.afterGap && interval > breakAfter) || !open {
                if open { out += "    </trkseg>\n" }
                out += "    <trkseg>\n"
                lostBefore = open
                open = true
            }
            out += "      <trkpt lat=\"\(Text.fixed(point.latitude, 7))\" lon=\"\(Text.fixed(point.longitude, 7))\">"
            if let altitude = point.altitudeMSL { out += "<ele>\(Text.fixed(altitude, 1))</ele>" }
            out += "<time>\(timestamp(point.time))</time>"
            if let hdop = point.hdop { out += "<hdop>\(Text.compact(hdop, 2))</hdop>" }
            // GPX 1.1 has no speed; Garmin's TrackPointExtension carries it (Strava and
            // Garmin Connect read it, and `runwalk import` replays it as the Doppler speed).
            let speed = point.speedMetresPerSecond.flatMap { $0.isFinite ? $0 : nil }
            if speed != nil || lostBefore || point.heartRateBPM != nil {
                out += "<extensions>"
                if lostBefore { out += "<runwalk:gpsLostBefore>true</runwalk:gpsLostBefore>" }
                if let bpm = point.heartRateBPM {
                    out += "<gpxtpx1:TrackPointExtension><gpxtpx1:hr>\(bpm)</gpxtpx1:hr></gpxtpx1:TrackPointExtension>"
                }
                if let speed {
                    out += "<gpxtpx:TrackPointExtension><gpxtpx:speed>\(Text.fixed(speed, 3))</gpxtpx:speed></gpxtpx:TrackPointExtension>"
                }
                out += "</extensions>"
            }
            out += "</trkpt>\n"
        }
        if open { out += "    </trkseg>\n" }
        out += "  </trk>\n</gpx>\n"
        return out
    }

    /// Garmin's TrackPointExtension v1, which carries the heart rate.
    static let heartRateNamespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"

    /// The namespace of RunWalk's own GPX extensions.
    public static let extensionNamespace = "urn:runwalk:gpx:1"

    /// An interval longer than this is a real gap: three times the track's median interval,
    /// so a watch recording every 5 s is one segment, not one per point (other tools add no
    /// distance across segments).
    static func segmentBreakSeconds(_ track: [TrackPoint]) -> Double {
        guard track.count >= 2 else { return .infinity }
        var intervals = zip(track.dropFirst(), track).map { $0.elapsedSeconds - $1.elapsedSeconds }
        intervals.sort()
        return 3 * intervals[intervals.count / 2]
    }

    /// ISO 8601 with milliseconds only when the time has them (10 Hz receivers).
    static func timestamp(_ time: UTCTime) -> String {
        time.iso8601(fractionDigits: time.milliseconds % 1000 == 0 ? 0 : 3)
    }
}
