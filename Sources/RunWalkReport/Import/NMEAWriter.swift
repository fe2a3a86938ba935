#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore

/// Turns an imported GPX track into an NMEA 0183 log (`$GPGGA` + `$GPRMC` per point) that
/// `runwalk replay` reads like any receiver's log.
///
/// GPX carries no Doppler speed, so each point's speed and course are derived from its
/// neighbours in the same segment (a central difference), unless the file gave a speed.
/// The GPX `<hdop>` goes into GGA (empty when absent: the pipeline then assumes its default).
/// Points whose time does not move forward are dropped and counted.
public enum NMEAWriter {
    /// What the conversion produced.
    public struct Output: Sendable, Equatable {
        /// The NMEA log, CRLF line endings.
        public var text: String
        /// Epochs written (one per kept point).
        public var epochs: Int
        /// Points dropped because their time did not advance.
        public var droppedPoints: Int
    }

    /// The NMEA log, with `#` header lines naming the source and its format (GPX, TCX, FIT).
    public static func render(_ track: GPXTrack, source: String, format: String = "GPX") -> Output {
        var lines: [String] = [
            "# RunWalk track imported from \(oneLine(format)): \(oneLine(source))",
            "# Track name: \(oneLine(track.name ?? "(none)"))",
            "# Converted by runwalk import: one RMC + GGA epoch per point; speed and course derived from neighbouring points unless the file's speed agreed with them",
        ]
        var writer = NMEAStreamWriter()
        var text = lines.joined(separator: "\r\n") + "\r\n"
        for segment in track.segments {
            for (i, point) in segment.enumerated() { text += writer.add(point, startsSegment: i == 0) }
        }
        text += writer.finish()
        return Output(text: text, epochs: writer.epochs, droppedPoints: writer.droppedPoints)
    }

    /// The `#` lines that open an imported log.
    public static func header(source: String, format: String) -> String {
        "# RunWalk track imported from \(oneLine(format)): \(oneLine(source))\r\n"
            + "# Converted by runwalk import: one RMC + GGA epoch per point; speed and course derived from neighbouring points unless the file's speed agreed with them\r\n"
    }

    static func rmc(_ p: GPXTrack.Point, speed: Double?, course: Double?) -> String {
        let (year, month, day) = p.time.civilDate
        let date = Text.padded(day, 2) + Text.padded(month, 2) + Text.padded(year % 100, 2)
        let knots = speed.map { Text.fixed($0 * 3600 / 1852, 3) } ?? ""
        let track = course.map { Text.fixed($0, 1) } ?? ""
        return sentence("GPRMC,\(timeOfDay(p.time)),A,\(coordinate(p.latitude, degreeDigits: 2, positive: "N", negative: "S"))," +
                        "\(coordinate(p.longitude, degreeDigits: 3, positive: "E", negative: "W")),\(knots),\(track),\(date),,,A")
    }

    static func gga(_ p: GPXTrack.Point) -> String {
        let altitude = p.elevationMetres.map { Text.fixed($0, 1) } ?? ""
        // No HDOP in the GPX: leave it empty, so the pipeline assumes its default accuracy.
        let hdop = p.hdop.map { Text.fixed($0, 2) } ?? ""
        return sentence("GPGGA,\(timeOfDay(p.time)),\(coordinate(p.latitude, degreeDigits: 2, positive: "N", negative: "S"))," +
                        "\(coordinate(p.longitude, degreeDigits: 3, positive: "E", negative: "W")),1,08,\(hdop),\(altitude),M,0.0,M,,")
    }

    /// `$` + body + `*` + the XOR checksum in two hex digits.
    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = Array("0123456789ABCDEF")
        return "$\(body)*\(hex[Int(sum >> 4)])\(hex[Int(sum & 15)])"
    }

    static func timeOfDay(_ time: UTCTime) -> String {
        let ms = Int(time.millisecondOfDay)
        return Text.padded(ms / 3_600_000, 2) + Text.padded(ms / 60_000 % 60, 2) + Text.padded(ms / 1000 % 60, 2)
            + "." + Text.padded(ms % 1000, 3)
    }

    /// `4807.038000,N`-style degrees and minutes with six decimals of minutes.
    static func coordinate(_ degrees: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let magnitude = abs(degrees)
        var whole = Int(magnitude)
        var minutes = (magnitude - Double(whole)) * 60
        if (minutes * 1_000_000).rounded() >= 60_000_000 { whole += 1; minutes = 0 }
        let minuteText = Text.fixed(minutes, 6)
        let padded = minuteText.count < 9 ? String(repeating: "0", count: 9 - minuteText.count) + minuteText : minuteText
        return Text.padded(whole, degreeDigits) + padded + "," + (degrees < 0 ? negative : positive)
    }

    static func bearing(from a: GPXTrack.Point, to b: GPXTrack.Point) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180, dλ = (b.longitude - a.longitude) * .pi / 180
        let y = sin(dλ) * cos(φ2), x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
        let degrees = atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
