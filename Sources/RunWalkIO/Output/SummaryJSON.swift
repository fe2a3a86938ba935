import FoundationEssentials
import RunWalkCore

/// The contract JSON for summaries and fixes.
public enum SummaryJSON {
    /// The summary as pretty-printed JSON with the contract's keys.
    public static func encode(_ summary: Summary) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(summary), as: UTF8.self)
    }

    /// Decodes a summary written by `encode`.
    public static func decode(_ text: String) throws -> Summary {
        try JSONDecoder().decode(Summary.self, from: Data(text.utf8))
    }
}

/// One fix per line, as `runwalk fixes` prints it.
public enum FixFormat {
    /// `{"time":"…","lat":…,"lon":…,…}`; absent values are omitted.
    public static func jsonLine(_ fix: Fix) -> String {
        var parts = ["\"time\":\"\(fix.time.iso8601())\""]
        func add(_ key: String, _ value: Double?, _ digits: Int) {
            if let value, value.isFinite { parts.append("\"\(key)\":\(number(value, digits))") }
        }
        if fix.hasPosition || fix.latitude != nil {
            add("lat", fix.latitude, 9)
            add("lon", fix.longitude, 9)
        }
        add("alt_msl", fix.altitudeMSL, 4)
        add("speed_mps", fix.speedMetresPerSecond, 3)
        add("course_deg", fix.courseDegrees, 4)
        if let mode = fix.mode { parts.append("\"mode\":\(mode.rawValue)") }
        if let quality = fix.quality { parts.append("\"quality\":\(quality)") }
        add("hdop", fix.hdop, 2)
        add("vdop", fix.vdop, 2)
        add("pdop", fix.pdop, 2)
        if let sats = fix.satellitesUsed { parts.append("\"sats\":\(sats)") }
        add("err_lat_m", fix.latitudeErrorMetres, 2)
        add("err_lon_m", fix.longitudeErrorMetres, 2)
        add("err_alt_m", fix.altitudeErrorMetres, 2)
        if let bpm = fix.heartRateBPM { parts.append("\"hr\":\(bpm)") }
        return "{" + parts.joined(separator: ",") + "}"
    }

    public static let csvHeader = "time,lat,lon,alt_msl,speed_mps,course_deg,mode,quality,hdop,vdop,pdop,sats"

    public static func csvLine(_ fix: Fix) -> String {
        func f(_ v: Double?, _ d: Int) -> String { v.map { $0.isFinite ? number($0, d) : "" } ?? "" }
        let fields = [
            fix.time.iso8601(), f(fix.latitude, 9), f(fix.longitude, 9), f(fix.altitudeMSL, 4),
            f(fix.speedMetresPerSecond, 3), f(fix.courseDegrees, 4), fix.mode.map { String($0.rawValue) } ?? "",
            fix.quality.map(String.init) ?? "", f(fix.hdop, 2), f(fix.vdop, 2), f(fix.pdop, 2),
            fix.satellitesUsed.map(String.init) ?? "",
        ]
        return fields.joined(separator: ",")
    }

    /// A decimal without trailing zeros, rounded to `digits`.
    static func number(_ value: Double, _ digits: Int) -> String {
        var text = CFormat.string("%.*f", Int32(digits), value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
