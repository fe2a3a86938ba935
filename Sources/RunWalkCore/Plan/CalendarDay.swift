/// A calendar date (UTC), as days since 1970-01-01: what plans schedule and history groups by.
public struct CalendarDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01 (a Thursday).
    public var daysSinceEpoch: Int64

    public init(daysSinceEpoch: Int64) { self.daysSinceEpoch = daysSinceEpoch }

    /// The date of a civil year, month and day.
    public init(year: Int, month: Int, day: Int) {
        daysSinceEpoch = Int64(UTCTime.daysFromCivil(year: year, month: month, day: day))
    }

    /// The UTC date of an instant.
    public init(_ time: UTCTime) { daysSinceEpoch = time.day }

    /// Parses `YYYY-MM-DD`; nil when it is not a real date.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...Self.daysIn(year: y, month: m)).contains(d) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    /// The civil date.
    public var civil: (year: Int, month: Int, day: Int) {
        let (y, m, d) = UTCTime.civilFromDays(Int(daysSinceEpoch))
        return (y, m, d)
    }

    /// Monday is 0, Sunday 6.
    public var weekday: Int { Int(((daysSinceEpoch + 3) % 7 + 7) % 7) }

    /// The Monday on or before this day.
    public var monday: CalendarDay { adding(days: -weekday) }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> CalendarDay { CalendarDay(daysSinceEpoch: daysSinceEpoch + Int64(days)) }

    /// Days from `earlier` to this day.
    public func days(since earlier: CalendarDay) -> Int { Int(daysSinceEpoch - earlier.daysSinceEpoch) }

    /// `2026-11-25`.
    public var description: String {
        let (y, m, d) = civil
        return "\(Self.pad(y, 4))-\(Self.pad(m, 2))-\(Self.pad(d, 2))"
    }

    /// `Wed 2026-11-25`.
    public var withWeekday: String { "\(Weekday.allCases[weekday].shortName) \(description)" }

    /// Days in a month of the proleptic Gregorian calendar.
    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A day of the week, Monday first (as `--days mon,wed,sat` names them).
public enum Weekday: String, Sendable, CaseIterable, Codable {
    case mon, tue, wed, thu, fri, sat, sun

    /// `Mon`.
    public var shortName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// 0 for Monday … 6 for Sunday.
    public var index: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// Parses `mon,wed,sat` (full names too); nil and the bad word when one is not a weekday.
    public static func parseList(_ text: String) -> Result<[Weekday], WeekdayListError> {
        var days: [Weekday] = []
        for word in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            let key = String(word.prefix(3))
            guard word.count >= 3, let day = Weekday(rawValue: key),
                  Self.fullNames[day.index].hasPrefix(word) else { return .failure(WeekdayListError(word: String(word))) }
            if days.contains(day) { return .failure(WeekdayListError(word: String(word), repeated: true)) }
            days.append(day)
        }
        return .success(days.sorted { $0.index < $1.index })
    }

    private static let fullNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
}

/// A word in a weekday list that is not a weekday (or names one twice).
public struct WeekdayListError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The word as given.
    public var word: String
    /// True when the word names a day already in the list.
    public var repeated = false
    public var description: String {
        repeated ? "\"\(word)\" is named twice" : "\"\(word)\" is not a day of the week (mon, tue, wed, thu, fri, sat, sun)"
    }
}
