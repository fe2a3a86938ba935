import Foundation
import RunWalkCore
import RunWalkIO

/// The app's number formats: the CLI's (`SummaryText`) where one exists, so both read alike;
/// times are `TimeText.clock`, as everywhere.
public enum Format {
    /// "2.31 km" (or miles).
    public static func distance(_ metres: Double, _ units: Units) -> String { SummaryText.distance(metres, units) }

    /// "5:40 /km", or "–" when there is no pace.
    public static func pace(_ secondsPerKm: Double?, _ units: Units) -> String {
        secondsPerKm == nil ? "–" : SummaryText.pace(secondsPerKm, units)
    }

    /// A planned or remaining distance: "400 m" below 1 km, else "1.50 km".
    public static func metres(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.2f km", metres / 1000)
    }

    /// "2026-04-21 19:00" (UTC) for a session's date.
    public static func date(_ time: UTCTime) -> String {
        let day = CalendarDay(time).civil
        let minutes = time.millisecondOfDay / 60_000
        return String(format: "%04d-%02d-%02d %02d:%02d", day.year, day.month, day.day, Int(minutes / 60), Int(minutes % 60))
    }
}
