/// A UTC instant in whole milliseconds since 1970-01-01T00:00:00Z.
///
/// Integer milliseconds keep receiver times exact (10 Hz epochs never round), so
/// durations between fixes are exact too.
public struct UTCTime: Sendable, Hashable, Comparable, Codable {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// From a civil date and a time of day.
    public init(year: Int, month: Int, day: Int, secondsOfDayMilli: Int64) {
        milliseconds = Int64(Self.daysFromCivil(year: year, month: month, day: day)) * 86_400_000 + secondsOfDayMilli
    }

    public static func < (a: UTCTime, b: UTCTime) -> Bool { a.milliseconds < b.milliseconds }

    /// Days since 1970-01-01.
    public var day: Int64 { milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000 }
    /// Milliseconds into the UTC day.
    public var millisecondOfDay: Int64 { milliseconds - day * 86_400_000 }

    /// The time from `earlier` to this instant.
    public func since(_ earlier: UTCTime) -> Duration { .milliseconds(milliseconds - earlier.milliseconds) }

    public func adding(_ duration: Duration) -> UTCTime {
        let c = duration.components
        return UTCTime(milliseconds: milliseconds + c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000)
    }

    /// ISO 8601, e.g. `2026-04-12T06:30:01.000Z` (or without fraction).
    public func iso8601(fractionDigits: Int = 3) -> String {
        let (y, m, d) = Self.civilFromDays(Int(day))
        let ms = millisecondOfDay
        let h = ms / 3_600_000, mi = ms / 60_000 % 60, s = ms / 1000 % 60, frac = ms % 1000
        var text = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(Int(h), 2)):\(pad(Int(mi), 2)):\(pad(Int(s), 2))"
        if fractionDigits > 0 {
            text += "." + String(pad(Int(frac), 3).prefix(fractionDigits))
        }
        return text + "Z"
    }

    /// The civil date (year, month, day) of this instant.
    public var civilDate: (year: Int, month: Int, day: Int) { Self.civilFromDays(Int(day)) }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
