import RunWalkCore
import RunWalkRuntime

/// The words and numbers of the screen: clocks, distances, paces, phase names (times through
/// `TimeText`, the GPS state through `SessionStatus.GPS.text`, as every front end).
enum ScreenText {
    /// `m:ss`, or `h:mm:ss` from an hour on; whole seconds rounded up, so a countdown shows 0:00
    /// only when the phase is over.
    static func countdown(_ seconds: Double) -> String { TimeText.clock(seconds, rounding: .up) }

    /// `m:ss` or `h:mm:ss` of seconds rounded down (a clock that counts up).
    static func elapsed(_ seconds: Double) -> String { TimeText.clock(seconds, rounding: .down) }

    /// The distance in the runner's units: `2.34 km`, `1.45 mi`.
    static func distance(_ metres: Double, units: Units) -> String {
        let value = max(0, metres) / units.splitMetres
        return "\(fixed(value, decimals: 2)) \(units == .metric ? "km" : "mi")"
    }

    /// A pace in the runner's units without the unit (`6:05`), `--:--` when there is none.
    static func pace(_ secondsPerKm: Double?, units: Units) -> String {
        guard let secondsPerKm, secondsPerKm.isFinite, secondsPerKm > 0, secondsPerKm < 3600 * 2 else { return "--:--" }
        return TimeText.clock(secondsPerKm * units.splitMetres / 1000)
    }

    /// `/km` or `/mi`.
    static func paceUnit(_ units: Units) -> String { units == .metric ? "/km" : "/mi" }

    /// The planned length of a phase: `1:30` or `400 m`.
    static func planned(_ phase: SessionStatus.Phase) -> String {
        if let seconds = phase.plannedSeconds { return countdown(seconds) }
        if let metres = phase.plannedMetres { return metres >= 1000 ? "\(fixed(metres / 1000, decimals: 2)) km" : "\(Int(metres.rounded())) m" }
        return ""
    }

    /// The phase's name in capitals, as the header shows it.
    static func name(_ kind: PhaseKind) -> String {
        switch kind {
        case .warmup: "WARM-UP"
        case .run: "RUN"
        case .walk: "WALK"
        case .cooldown: "COOL-DOWN"
        }
    }

    /// The phase's name in small letters, for "Next: walk 1:00".
    static func word(_ kind: PhaseKind) -> String {
        switch kind {
        case .warmup: "warm-up"
        case .run: "run"
        case .walk: "walk"
        case .cooldown: "cool-down"
        }
    }

    /// `text` cut to `columns` with an ellipsis when it is longer.
    static func shortened(_ text: String, to columns: Int) -> String {
        guard text.count > columns else { return text }
        guard columns > 1 else { return String(text.prefix(max(0, columns))) }
        return String(text.prefix(columns - 1)) + "…"
    }

    /// A number with a fixed count of decimals, without Foundation's formatters.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        var digits = String(fraction)
        while digits.count < decimals { digits = "0" + digits }
        return (value < 0 && scaled > 0 ? "-" : "") + (decimals > 0 ? "\(whole).\(digits)" : "\(whole)")
    }

    /// A bar of `width` columns, `fraction` of it full: `█████░░░░░`.
    static func bar(_ fraction: Double, width: Int) -> (done: String, left: String) {
        let width = max(0, width)
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        let done = Int((clamped * Double(width)).rounded(.down))
        return (String(repeating: "█", count: done), String(repeating: "░", count: width - done))
    }
}
