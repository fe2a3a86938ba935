/// The one clock-style time formatter of every front end: `m:ss` below an hour, `h:mm:ss` from
/// an hour on (`0:07`, `12:40`, `1:05:03`, `100:00:00`).
///
/// The terminal, the app, the control line, the reports, the lock-screen title and the spec's
/// pace bands all write times through it, so a time reads the same wherever it is shown.
///
/// ```swift
/// TimeText.clock(72.4)                  // "1:12"
/// TimeText.clock(71.2, rounding: .up)   // "1:12" (a countdown reads 0:00 only at its end)
/// TimeText.clock(-3)                    // "0:00"
/// TimeText.clock(.nan)                  // "--:--"
/// ```
public enum TimeText {
    /// What is shown for a time that is not a number or too large to be one (NaN, ±infinity).
    public static let unknown = "--:--"
    /// Times beyond this many seconds (about 31,700 years) are shown as `unknown`: no session
    /// lasts that long, and `Int` could not hold the larger ones.
    static let largestSeconds = 1e12

    /// `seconds` as `m:ss` or `h:mm:ss`, rounded to a whole second by `rounding` (to nearest,
    /// halves away from zero, unless told otherwise: `.up` for a countdown, `.down` for a clock
    /// that counts up). A negative time reads `0:00`; NaN and infinities read `--:--`.
    public static func clock(_ seconds: Double, rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> String {
        guard seconds.isFinite, seconds <= largestSeconds else { return unknown }
        let total = Int(max(0, seconds).rounded(rounding))
        let hours = total / 3600, minutes = total / 60 % 60, secs = total % 60
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
