import FoundationEssentials
import RunWalkIO
import RunWalkCore
import RunWalkRuntime

/// A session status as one line for a person or a status bar:
/// `run 3/8 · 1:12 left · 2.31 km · 5:40 /km · GPS fix ±3 m, 9 sats` (PAUSED in front when paused).
public enum SessionStatusLine {
    /// The line for `status`.
    public static func render(_ status: SessionStatus) -> String {
        let units = status.units
        var parts: [String] = []
        switch status.stage {
        case .waitingForFix:
            parts.append("waiting for a GPS fix")
        case .startCountdown:
            parts.append(status.startCountdownSeconds.map { "starting in \($0)" } ?? "starting")
        case .completed, .stopped:
            parts.append(status.stage == .completed ? "completed" : "stopped")
            parts.append(TimeText.clock(status.workoutElapsedSeconds))
            parts.append(SummaryText.distance(status.distanceMetres, units))
            parts.append(pace(status.averagePaceSecondsPerKm, units) + " average")
            return parts.joined(separator: " · ")
        case .running, .paused:
            if status.paused || status.stage == .paused { parts.append(status.autoPaused ? "PAUSED (auto)" : "PAUSED") }
            if let phase = status.phase { parts.append("\(phase.kind.rawValue) \(phase.index + 1)/\(status.phaseCount)") }
            if let seconds = status.phaseRemainingSeconds {
                parts.append("\(TimeText.clock(seconds)) left")
            } else if let metres = status.phaseRemainingMetres {
                parts.append("\(distanceLeft(max(0, metres), units)) left")
            }
        }
        parts.append(SummaryText.distance(status.distanceMetres, units))
        parts.append(pace(status.currentPaceSecondsPerKm, units))
        parts.append(status.gps.text)
        return parts.joined(separator: " · ")
    }

    /// No pace (standing, no fix, GPS lost) shows as dashes rather than a stale number.
    static func pace(_ secondsPerKm: Double?, _ units: Units) -> String {
        secondsPerKm.map { SummaryText.pace($0, units) } ?? (units == .metric ? "-:-- /km" : "-:-- /mi")
    }

    /// Short distances in metres (`350 m`), longer in the runner's units.
    static func distanceLeft(_ metres: Double, _ units: Units) -> String {
        units == .metric && metres < 1000 ? "\(Int(metres.rounded())) m" : SummaryText.distance(metres, units)
    }
}
