import RunWalkCore
import RunWalkRuntime

/// The start page's GPS line before a session: what the source said last (connected, no fix,
/// fix with satellites and accuracy, unavailable), fed the source's own events, in the words the
/// live page and every other front end use (`GPSStateText`).
public struct GPSProbeModel: Equatable, Sendable {
    /// The line to show, e.g. "GPS fix ±4 m, 9 sats (gpsd at localhost:2947)".
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
            if !hasFix { line = GPSStateText.line(.noFix) + " (\(source))" }
        case .unavailable(let why):
            hasFix = false
            line = "GPS unavailable: \(why)"
        case .fix(let fix):
            guard fix.latitude != nil, fix.longitude != nil, (fix.mode ?? .threeD) > .noFix else {
                hasFix = false
                let satellites = fix.satellitesVisible ?? fix.satellitesUsed
                line = GPSStateText.line(.noFix) + (satellites.map { " · \($0) satellites seen" } ?? "") + " (\(source))"
                return
            }
            hasFix = true
            line = GPSStateText.line(.fix, accuracyMetres: Self.accuracy(fix, userRangeErrorMetres: userRangeErrorMetres),
                                     satellites: fix.satellitesUsed ?? fix.satellitesVisible) + " (\(source))"
        case .ended:
            line = hasFix ? line : "No fix in \(source)"
        case .problem(let text):
            // "gpsd has no receiver": the unavailable line that follows says what to do.
            if let text, !hasFix { line = GPSStateText.line(.noFix, problem: text) + " (\(source))" }
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
