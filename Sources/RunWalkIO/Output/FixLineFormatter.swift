import RunWalkCore

/// Writes fixes as `runwalk fixes` prints them (JSON lines or CSV), byte for byte as
/// `FixFormat` does, straight into an output buffer: no strings, no Foundation.
///
/// Numbers are printed as `printf("%.Nf")` would (the double's exact value rounded to N
/// decimals, ties to even), then trailing zeros and a bare point are dropped and `-0` is `0`.
/// The exact rounding uses 128-bit integers; values too large for that (none a receiver sends)
/// take `FixFormat`'s path.
public enum FixLineFormatter {
    /// The most bytes one line can take (every field present, long numbers).
    static let maximumLineBytes = 1024

    /// Appends `fix` as one JSON object and a line feed.
    public static func writeJSON(_ fix: Fix, to out: inout OutputStreamWriter) throws(OutputError) {
        let start = try out.reserve(maximumLineBytes)
        var p = start
        put("{\"time\":\"", &p)
        time(fix.time, &p)
        p.pointee = 0x22; p += 1
        if fix.hasPosition || fix.latitude != nil {
            field(",\"lat\":", fix.latitude, 9, &p)
            field(",\"lon\":", fix.longitude, 9, &p)
        }
        field(",\"alt_msl\":", fix.altitudeMSL, 4, &p)
        field(",\"speed_mps\":", fix.speedMetresPerSecond, 3, &p)
        field(",\"course_deg\":", fix.courseDegrees, 4, &p)
        if let mode = fix.mode { put(",\"mode\":", &p); integer(mode.rawValue, &p) }
        if let quality = fix.quality { put(",\"quality\":", &p); integer(quality, &p) }
        field(",\"hdop\":", fix.hdop, 2, &p)
        field(",\"vdop\":", fix.vdop, 2, &p)
        field(",\"pdop\":", fix.pdop, 2, &p)
        if let sats = fix.satellitesUsed { put(",\"sats\":", &p); integer(sats, &p) }
        field(",\"err_lat_m\":", fix.latitudeErrorMetres, 2, &p)
        field(",\"err_lon_m\":", fix.longitudeErrorMetres, 2, &p)
        field(",\"err_alt_m\":", fix.altitudeErrorMetres, 2, &p)
        if let bpm = fix.heartRateBPM { put(",\"hr\":", &p); integer(bpm, &p) }
        p[0] = 0x7D; p[1] = 0x0A; p += 2
        out.advance(by: start.distance(to: p))
    }

    /// Appends `fix` as one CSV row (`FixFormat.csvHeader`'s columns) and a line feed.
    public static func writeCSV(_ fix: Fix, to out: inout OutputStreamWriter) throws(OutputError) {
        let start = try out.reserve(maximumLineBytes)
        var p = start
        time(fix.time, &p)
        column(fix.latitude, 9, &p)
        column(fix.longitude, 9, &p)
        column(fix.altitudeMSL, 4, &p)
        column(fix.speedMetresPerSecond, 3, &p)
        column(fix.courseDegrees, 4, &p)
        p.pointee = 0x2C; p += 1
        if let mode = fix.mode { integer(mode.rawValue, &p) }
        p.pointee = 0x2C; p += 1
        if let quality = fix.quality { integer(quality, &p) }
        column(fix.hdop, 2, &p)
        column(fix.vdop, 2, &p)
        column(fix.pdop, 2, &p)
        p.pointee = 0x2C; p += 1
        if let sats = fix.satellitesUsed { integer(sats, &p) }
        p.pointee = 0x0A; p += 1
        out.advance(by: start.distance(to: p))
    }

    // MARK: Pieces

    @inline(__always)
    static func put(_ text: StaticString, _ p: inout UnsafeMutablePointer<UInt8>) {
        let n = text.utf8CodeUnitCount
        p.update(from: text.utf8Start, count: n)
        p += n
    }

    @inline(__always)
    static func field(_ key: StaticString, _ value: Double?, _ digits: Int, _ p: inout UnsafeMutablePointer<UInt8>) {
        guard let value, value.isFinite else { return }
        put(key, &p)
        number(value, digits, &p)
    }

    @inline(__always)
    static func column(_ value: Double?, _ digits: Int, _ p: inout UnsafeMutablePointer<UInt8>) {
        p.pointee = 0x2C; p += 1
        guard let value, value.isFinite else { return }
        number(value, digits, &p)
    }

    static func integer(_ value: Int, _ p: inout UnsafeMutablePointer<UInt8>) {
        if value < 0 { p.pointee = 0x2D; p += 1 }
        unsigned(value.magnitude, minimumDigits: 1, &p)
    }

    /// `value` in decimal, left-padded with zeros to `minimumDigits`.
    @inline(__always)
    static func unsigned(_ value: UInt, minimumDigits: Int, _ p: inout UnsafeMutablePointer<UInt8>) {
        var digits = 1
        var rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        digits = max(digits, minimumDigits)
        var v = value
        for i in stride(from: digits - 1, through: 0, by: -1) {
            p[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
            v /= 10
        }
        p += digits
    }

    /// `2026-04-12T06:30:01.000Z`, as `UTCTime.iso8601()`.
    static func time(_ t: UTCTime, _ p: inout UnsafeMutablePointer<UInt8>) {
        let (year, month, day) = t.civilDate
        guard year >= 0, year <= 9999 else {
            for byte in t.iso8601().utf8 { p.pointee = byte; p += 1 }
            return
        }
        let ms = UInt(t.millisecondOfDay)
        unsigned(UInt(year), minimumDigits: 4, &p)
        p.pointee = 0x2D; p += 1
        unsigned(UInt(month), minimumDigits: 2, &p)
        p.pointee = 0x2D; p += 1
        unsigned(UInt(day), minimumDigits: 2, &p)
        p.pointee = 0x54; p += 1
        unsigned(ms / 3_600_000, minimumDigits: 2, &p)
        p.pointee = 0x3A; p += 1
        unsigned(ms / 60_000 % 60, minimumDigits: 2, &p)
        p.pointee = 0x3A; p += 1
        unsigned(ms / 1000 % 60, minimumDigits: 2, &p)
        p.pointee = 0x2E; p += 1
        unsigned(ms % 1000, minimumDigits: 3, &p)
        p.pointee = 0x5A; p += 1
    }

    private static let powersOfTen: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000,
                                                100_000_000, 1_000_000_000]

    /// `value` rounded to `digits` (0…9) decimals as `%.Nf` does, without trailing zeros.
    static func number(_ value: Double, _ digits: Int, _ p: inout UnsafeMutablePointer<UInt8>) {
        guard let scaled = scaledRounded(value.magnitude, digits) else {
            for byte in FixFormat.number(value, digits).utf8 { p.pointee = byte; p += 1 }
            return
        }
        if scaled == 0 { p.pointee = 0x30; p += 1; return } // also -0 and tiny negatives
        if value.sign == .minus { p.pointee = 0x2D; p += 1 }
        let power = powersOfTen[digits]
        unsigned(UInt(scaled / power), minimumDigits: 1, &p)
        var fraction = scaled % power
        guard fraction > 0 else { return }
        var width = digits
        while fraction % 10 == 0 { fraction /= 10; width -= 1 }
        p.pointee = 0x2E; p += 1
        unsigned(UInt(fraction), minimumDigits: width, &p)
    }

    /// round(magnitude × 10^digits), ties to even, computed exactly; nil when out of range.
    static func scaledRounded(_ magnitude: Double, _ digits: Int) -> UInt64? {
        guard digits >= 0, digits < powersOfTen.count, magnitude < 1e9 else { return nil }
        if magnitude == 0 { return 0 }
        let exponentBits = Int(magnitude.exponentBitPattern)
        let mantissa = exponentBits == 0 ? magnitude.significandBitPattern
            : magnitude.significandBitPattern | (1 << 52)
        let exponent = (exponentBits == 0 ? 1 : exponentBits) - 1075
        let power = powersOfTen[digits]
        if exponent >= 0 {
            return (mantissa << UInt64(exponent)) * power // < 1e9 × 1e9: fits
        }
        let shift = -exponent
        // mantissa × 10^9 < 2^83: shifted by 84 or more it rounds to zero.
        if shift >= 84 { return 0 }
        let product = UInt128(mantissa) * UInt128(power)
        var quotient = product >> UInt128(shift)
        let remainder = product & ((UInt128(1) << UInt128(shift)) - 1)
        let half = UInt128(1) << UInt128(shift - 1)
        if remainder > half || (remainder == half && quotient & 1 == 1) { quotient += 1 }
        return UInt64(quotient)
    }
}
