/// ISO 8601 date-times as GPX, TCX and the summary write them: `2026-04-12T06:30:01Z`, with a
/// fraction of a second (`.250` or `,250`), with an offset (`+02:00`, `+0200`, `+02`), or with
/// no zone at all (the caller decides what that means: track files read it as UTC and say so).
public enum ISO8601Time {
    /// The instant and whether the text named its zone; nil when it is not a date-time.
    public static func parse(_ text: String) -> (time: UTCTime, zoned: Bool)? {
        let bytes = Array(text.utf8)
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= bytes.count else { return nil }
            var value = 0
            for b in bytes[i..<(i + width)] {
                guard b >= 48, b <= 57 else { return nil }
                value = value * 10 + Int(b - 48)
            }
            i += width
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              i < bytes.count, bytes[i] == 84 || bytes[i] == 116 || bytes[i] == 32 else { return nil }
        i += 1
        guard let hour = number(2), expect(58), let minute = number(2), expect(58), let second = number(2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        var millis = 0
        if expect(46) || expect(44) {
            var scale = 100, digits = 0
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                millis += Int(bytes[i] - 48) * scale
                scale /= 10
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetMinutes = 0, zoned = true
        if expect(90) || expect(122) {
            // Z
        } else if i < bytes.count, bytes[i] == 43 || bytes[i] == 45 {
            let sign = bytes[i] == 45 ? -1 : 1
            i += 1
            guard let oh = number(2), oh <= 14 else { return nil }
            _ = expect(58)
            let om = i < bytes.count ? number(2) : 0
            guard let om, om < 60 else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
        } else {
            zoned = false
        }
        guard i == bytes.count else { return nil }
        let ofDay = Int64(((hour * 60 + minute) * 60 + second) * 1000 + millis) - Int64(offsetMinutes) * 60_000
        return (UTCTime(year: year, month: month, day: day, secondsOfDayMilli: ofDay), zoned)
    }

    /// The instant of a date-time that names its zone; nil otherwise (the summary's `start_utc`).
    public static func parseZoned(_ text: String) -> UTCTime? {
        guard let parsed = parse(text), parsed.zoned else { return nil }
        return parsed.time
    }
}
