/// The one wording of the GPS state for every front end: the terminal view, the line-mode status
/// line, `runwalk control status`, and the app's live page all show this line.
///
/// - a fix: `GPS fix ±4 m, 9 sats` (`GPS fix 9 sats`, `GPS fix ±4 m` or `GPS fix` with less known);
/// - none yet since the session began: `No GPS fix yet`, then `No GPS fix for 0:12`;
/// - positions stopped: `GPS lost for 1:12` (`GPS lost` before the time is known);
/// - no fix and the source says why: `GPS: gpsd has no receiver` (the reason beats a bare
///   "no fix"; a fix beats a stale reason).
public enum GPSStateText {
    /// Where the GPS is, as the session status keeps it.
    public enum State: Sendable, Equatable {
        case noFix, fix, lost
    }

    /// The line for a state. `lostForSeconds` counts up from when the positions stopped (or from
    /// the session's start while there has been none) and is shown rounded down, as a clock that
    /// counts up is; `problem` is the source's own few words.
    public static func line(_ state: State, accuracyMetres: Double? = nil, satellites: Int? = nil,
                            lostForSeconds: Double? = nil, problem: String? = nil) -> String {
        if state != .fix, let problem, !problem.isEmpty { return "GPS: \(problem)" }
        let lostFor = lostForSeconds.flatMap { $0.isFinite && $0 >= 1 ? TimeText.clock($0, rounding: .down) : nil }
        switch state {
        case .noFix:
            return lostFor.map { "No GPS fix for \($0)" } ?? "No GPS fix yet"
        case .lost:
            return lostFor.map { "GPS lost for \($0)" } ?? "GPS lost"
        case .fix:
            var parts: [String] = []
            // A receiver's estimate can be absurd (or NaN) before it settles: then it is not shown.
            if let accuracyMetres, accuracyMetres.isFinite, accuracyMetres >= 0, accuracyMetres < 100_000 {
                parts.append("±\(Int(accuracyMetres.rounded())) m")
            }
            if let satellites, satellites >= 0 { parts.append("\(satellites) sats") }
            return parts.isEmpty ? "GPS fix" : "GPS fix " + parts.joined(separator: ", ")
        }
    }
}
