/// Measurement system for distances and paces.
public enum Units: String, Sendable, Codable, CaseIterable {
    case metric, imperial

    /// Metres in one split unit.
    public var splitMetres: Double { self == .metric ? 1000 : 1609.344 }
}

/// A counted word in one language: "1 minute" / "eine Minute", "5 minutes" / "5 Minuten".
public struct CountedWord: Sendable, Equatable {
    /// What one of it is called, number included ("1 minute", "eine Minute").
    public var one: String
    public var plural: String

    public init(one: String, plural: String) {
        self.one = one
        self.plural = plural
    }

    /// "1 minute", "5 minutes".
    public func count(_ n: Int) -> String { n == 1 ? one : "\(n) \(plural)" }
}

/// Numbers as a speaking voice says them, in one language's words.
///
/// Digits are left to espeak-ng, which reads them in the voice's language; the words
/// around them ("point", unit names, "one" forms) come from here.
public struct SpokenText: Sendable, Equatable {
    public var second, minute, hour, metre, kilometre, mile, yard: CountedWord
    /// The decimal word: "point", "Komma".
    public var point: String

    /// "90 seconds", "5 minutes", "2 minutes 30 seconds", "1 hour 5 minutes".
    public func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        // Up to two minutes, an interval is said in seconds ("90 seconds"), as runners say it.
        if h == 0, total <= 120, s != 0 || m == 0 { return second.count(total) }
        var parts: [String] = []
        if h > 0 { parts.append(hour.count(h)) }
        if m > 0 { parts.append(minute.count(m)) }
        if s > 0 { parts.append(second.count(s)) }
        return parts.joined(separator: " ")
    }

    /// "12 minutes 40", "1 hour 2 minutes 5" for clock-like times (split times, paces).
    public func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        if total < 60 { return second.count(s) }
        var text = h > 0 ? "\(hour.count(h)) \(minute.count(m))" : minute.count(m)
        if s > 0 { text += " \(s)" }
        return text
    }

    /// "400 metres", "1 point 5 kilometres", "3 miles", "200 yards".
    public func distance(_ metres: Double, units: Units) -> String {
        if units == .imperial {
            let miles = metres / 1609.344
            if miles < 0.25 { return yard.count(Int((metres / 0.9144).rounded())) }
            return decimal(miles, mile)
        }
        if metres < 1000 { return metre.count(Int(metres.rounded())) }
        return decimal(metres / 1000, kilometre)
    }

    /// A value to one decimal: "1 point 5 kilometres", "2 kilometres".
    public func decimal(_ value: Double, _ unit: CountedWord) -> String {
        let tenths = Int((value * 10).rounded())
        if tenths % 10 == 0 { return unit.count(tenths / 10) }
        return "\(tenths / 10) \(point) \(tenths % 10) \(unit.plural)"
    }
}
