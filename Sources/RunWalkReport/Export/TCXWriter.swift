import RunWalkCore

/// Renders a session as a Garmin Training Center (TCX v2) activity: one lap per phase,
/// run phases `Active` and walk phases `Resting`, track points with cumulative distance and
/// the receiver's speed in Garmin's ActivityExtension (`TPX`; Garmin Connect and Strava read it,
/// and `runwalk replay` uses it where it agrees with the positions: without it a stop-and-go
/// track read back comes out about 1 % short).
public enum TCXWriter {
    /// The TCX document.
    public static func render(_ session: RecordedSession) -> String {
        let summary = session.summary
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">\n"
        out += "  <Activities>\n    <Activity Sport=\"Running\">\n"
        out += "      <Id>\(GPXWriter.timestamp(session.time(atElapsed: 0)))</Id>\n"
        for lap in session.laps {
            let points = lap.points
            let maximumSpeed = lap.maximumSpeedMetresPerSecond
            out += "      <Lap StartTime=\"\(GPXWriter.timestamp(session.time(atElapsed: lap.startSeconds)))\">\n"
            out += "        <TotalTimeSeconds>\(Text.fixed(lap.durationSeconds, 3))</TotalTimeSeconds>\n"
            out += "        <DistanceMeters>\(Text.fixed(lap.distanceMetres, 2))</DistanceMeters>\n"
            if let maximumSpeed { out += "        <MaximumSpeed>\(Text.fixed(maximumSpeed, 3))</MaximumSpeed>\n" }
            out += "        <Calories>0</Calories>\n"
            if let phase = summary.phases.first(where: { $0.index == lap.index }), let average = phase.heartRateAverage,
               let maximum = phase.heartRateMax {
                out += "        <AverageHeartRateBpm><Value>\(Int(average.rounded()))</Value></AverageHeartRateBpm>\n"
                out += "        <MaximumHeartRateBpm><Value>\(maximum)</Value></MaximumHeartRateBpm>\n"
            }
            out += "        <Intensity>\(lap.kind.isActive ? "Active" : "Resting")</Intensity>\n"
            out += "        <TriggerMethod>\(triggerMethod(lap))</TriggerMethod>\n"
            if !points.isEmpty {
                out += "        <Track>\n"
                for point in points {
                    out += "          <Trackpoint><Time>\(GPXWriter.timestamp(point.time))</Time>"
                    out += "<Position><LatitudeDegrees>\(Text.fixed(point.latitude, 7))</LatitudeDegrees>"
                    out += "<LongitudeDegrees>\(Text.fixed(point.longitude, 7))</LongitudeDegrees></Position>"
                    if let altitude = point.altitudeMSL { out += "<AltitudeMeters>\(Text.fixed(altitude, 1))</AltitudeMeters>" }
                    out += "<DistanceMeters>\(Text.fixed(point.distanceMetres, 2))</DistanceMeters>"
                    if let bpm = point.heartRateBPM { out += "<HeartRateBpm><Value>\(bpm)</Value></HeartRateBpm>" }
                    if let speed = point.speedMetresPerSecond, speed.isFinite {
                        out += "<Extensions><TPX xmlns=\"\(activityExtensionNamespace)\"><Speed>\(Text.fixed(speed, 3))</Speed></TPX></Extensions>"
                    }
                    out += "</Trackpoint>\n"
                }
                out += "        </Track>\n"
            }
            out += "        <Notes>\(Text.escaped(lap.kind.label)) \(lap.index + 1)</Notes>\n"
            out += "      </Lap>\n"
        }
        out += "      <Notes>\(Text.escaped(summary.workout))</Notes>\n"
        out += "    </Activity>\n  </Activities>\n</TrainingCenterDatabase>\n"
        return out
    }

    /// Garmin's ActivityExtension v2, which carries a track point's speed.
    static let activityExtensionNamespace = "http://www.garmin.com/xmlschemas/ActivityExtension/v2"

    /// What ended the lap: its planned time or distance, or the runner (skip, stop).
    static func triggerMethod(_ lap: Lap) -> String {
        guard lap.endedByPlan else { return "Manual" }
        return lap.byDistance ? "Distance" : "Time"
    }
}
