/// How far other audio (the runner's music) is lowered while a cue speaks: off, or a level in dB.
///
/// Spelled `off`, `-12` or `-12dB` by `--duck` and the `duck` setting; the default is −12 dB,
/// low enough to hear a cue over music, high enough that the music is still there.
public enum DuckLevel: Sendable, Equatable {
    /// Other audio is left alone.
    case off
    /// Other audio is lowered by this many dB (0 or below).
    case decibels(Double)

    /// The level used when neither the option nor the setting says otherwise.
    public static let standard = DuckLevel.decibels(-12)

    /// The quietest level accepted; below it music is as good as stopped.
    public static let lowestDecibels = -60.0

    /// The change in dB to apply, nil when nothing is to be lowered.
    public var loweringDecibels: Double? {
        if case .decibels(let level) = self, level < 0 { return level }
        return nil
    }

    /// What the value should look like, for error messages.
    public static let expected = "off or a level in dB from -60 to 0, as in -12"

    /// Reads `off`, `-12`, `-12dB` or `-12 dB`; nil for anything else.
    public static func parse(_ text: String) -> DuckLevel? {
        let trimmed = text.trimmingBlanks
        if trimmed == "off" { return .off }
        var number = Substring(trimmed)
        if number.lowercased().hasSuffix("db") { number = number.dropLast(2) }
        let digits = String(number).trimmingBlanks
        guard digits.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "." || $0 == "+" }),
              let level = Double(digits), level.isFinite, level >= lowestDecibels, level <= 0 else { return nil }
        return .decibels(level)
    }
}
