import RunWalkCore
import RunWalkRuntime

/// The start page's GPS line before a session: what the source said last (connected, no fix,
/// fix with satellites and accuracy, unavailable), fed the source's own events.
public struct GPSProbeModel: Equatable, Sendable {
    /// The line to show, e.g. "GPS fix · 9 satellites · ±4 m (gpsd at localhost:2947)".
    public private(set) var line: String
    /// Whether the last fix had a position.
    public private(set) var hasFix = false
    private let source: String
    private let userRangeErrorMetres: Double

    /// Before the source said anything.
    public init(source: String, telemetry: TelemetrySettings = TelemetrySettings()) {
        self.source = source
        userRangeErrorMetres = telemetry.userRangeErrorMetres
        line = "Connecting to \(source)…"
    }

    /// Takes the source's next event.
    public mutating func handle(_ event: LocationEvent) {
        switch event {
        case .connected:
            if !hasFix { line = "No GPS fix yet (\(source))" }
        case .unavailable(let why):
            hasFix = false
            line = "GPS unavailable: \(why)"
        case .fix(let fix):
            guard fix.latitude != nil, fix.longitude != nil, (fix.mode ?? .threeD) > .noFix else {
                hasFix = false
                let satellites = fix.satellitesVisible ?? fix.satellitesUsed
                line = "No GPS fix yet" + (satellites.map { " · \($0) satellites seen" } ?? "") + " (\(source))"
                return
            }
            hasFix = true
            var parts = ["GPS fix"]
            if let satellites = fix.satellitesUsed ?? fix.satellitesVisible { parts.append("\(satellites) satellites") }
            if let accuracy = Self.accuracy(fix, userRangeErrorMetres: userRangeErrorMetres) { parts.append("±\(Int(accuracy.rounded())) m") }
            line = parts.joined(separator: " · ") + " (\(source))"
        case .ended:
            line = hasFix ? line : "No fix in \(source)"
        case .problem(let text):
            // "gpsd has no receiver": the unavailable line that follows says what to do.
            if let text, !hasFix { line = "No GPS: \(text) (\(source))" }
        case .warning, .badLines:
            break
        }
    }

    /// Horizontal accuracy as the live page counts it: the receiver's error estimate, else HDOP
    /// times the user range error.
    static func accuracy(_ fix: Fix, userRangeErrorMetres: Double) -> Double? {
        if let e = fix.latitudeErrorMetres, let n = fix.longitudeErrorMetres { return (e * e + n * n).squareRoot() }
        return fix.hdop.map { $0 * userRangeErrorMetres }
    }
}
