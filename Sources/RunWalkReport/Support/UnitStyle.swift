import RunWalkCore

/// How a report shows quantities in the runner's units (metric: km, min/km, km/h, m;
/// imperial: mi, min/mi, mph, ft).
public struct UnitStyle: Sendable, Equatable {
    /// Metric or imperial.
    public var units: Units

    /// The style for `units`.
    public init(_ units: Units) { self.units = units }

    var metresPerDistanceUnit: Double { units == .metric ? 1000 : 1609.344 }
    /// `km` or `mi`.
    public var distanceUnit: String { units == .metric ? "km" : "mi" }
    /// `/km` or `/mi`.
    public var paceUnit: String { units == .metric ? "/km" : "/mi" }
    /// `km/h` or `mph`.
    public var speedUnit: String { units == .metric ? "km/h" : "mph" }
    /// `m` or `ft`.
    public var elevationUnit: String { units == .metric ? "m" : "ft" }

    /// `3.86 km`.
    public func distance(_ metres: Double, digits: Int = 2) -> String {
        Text.fixed(metres / metresPerDistanceUnit, digits) + " " + distanceUnit
    }

    /// A short distance: `412 m` (or `0.26 mi`).
    public func shortDistance(_ metres: Double) -> String {
        units == .metric ? Text.fixed(metres, 0) + " m" : Text.fixed(metres / 1609.344, 2) + " mi"
    }

    /// Pace as `m:ss` per unit, from seconds per kilometre.
    public func pace(_ secondsPerKm: Double?) -> String {
        guard let secondsPerKm, secondsPerKm.isFinite, secondsPerKm > 0 else { return "–" }
        return TimeText.clock(paceValue(secondsPerKm))
    }

    /// Seconds per display unit, from seconds per kilometre.
    public func paceValue(_ secondsPerKm: Double) -> Double { secondsPerKm * metresPerDistanceUnit / 1000 }

    /// Speed in display units, from metres per second.
    public func speedValue(_ metresPerSecond: Double) -> Double {
        metresPerSecond * 3600 / metresPerDistanceUnit
    }

    /// Elevation in display units, from metres.
    public func elevationValue(_ metres: Double) -> Double { units == .metric ? metres : metres / 0.3048 }
}
