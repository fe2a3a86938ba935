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
            parts.append(SummaryText.clock(status.workoutElapsedSeconds))
            parts.append(SummaryText.distance(status.distanceMetres, units))
            parts.append(pace(status.averagePaceSecondsPerKm, units) + " average")
            return parts.joined(separator: " · ")
        case .running, .paused:
            if status.paused || status.stage == .paused { parts.append(status.autoPaused ? "PAUSED (auto)" : "PAUSED") }
            if let phase = status.phase { parts.append("\(phase.kind.rawValue) \(phase.index + 1)/\(status.phaseCount)") }
            if let seconds = status.phaseRemainingSeconds {
                parts.append("\(SummaryText.clock(max(0, seconds))) left")
            } else if let metres = status.phaseRemainingMetres {
                parts.append("\(distanceLeft(max(0, metres), units)) left")
            }
        }
        parts.append(SummaryText.distance(status.distanceMetres, units))
        parts.append(pace(status.currentPaceSecondsPerKm, units))
        parts.append(gps(status.gps))
        return parts.joined(separator: " · ")
    }

    /// `GPS fix ±3 m, 9 sats`, `GPS lost 0:12`, `GPS no fix`, `GPS: gpsd has no receiver`.
    static func gps(_ gps: SessionStatus.GPS) -> String {
        // What the source says is in the way ("gpsd has no receiver") beats a bare "no fix".
        if gps.state != .fix, let problem = gps.problem { return "GPS: \(problem)" }
        switch gps.state {
        case .noFix: return "GPS no fix"
        case .lost: return "GPS lost" + (gps.lostForSeconds.map { " " + SummaryText.clock($0) } ?? "")
        case .fix:
            var text = "GPS fix"
            if let accuracy = gps.accuracyMetres { text += " ±\(Int(accuracy.rounded())) m" }
            if let satellites = gps.satellites { text += (gps.accuracyMetres == nil ? " " : ", ") + "\(satellites) sats" }
            return text
        }
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
