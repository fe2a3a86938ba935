/// What a phase of a workout is for.
public enum PhaseKind: String, Sendable, Codable, CaseIterable {
    case warmup, run, walk, cooldown
}

/// When a phase ends: after a duration, or once a distance has been covered.
public enum PhaseTarget: Sendable, Equatable, Hashable {
    case duration(Duration)
    case distance(metres: Double)

    /// The duration in seconds, for time phases.
    public var durationSeconds: Double? {
        if case .duration(let d) = self { return d.seconds }
        return nil
    }

    /// The distance in metres, for distance phases.
    public var distanceMetres: Double? {
        if case .distance(let m) = self { return m }
        return nil
    }
}

/// One phase as planned: its kind, its length (`target`), and optionally a band to stay in and
/// a heart-rate condition that ends it.
///
/// A phase with a condition (`run until hr 150`) has its `max` bound as its duration target
/// (`HeartRateCondition.unboundedLength` without one); the engine ends it on the heart rate.
public struct PlannedPhase: Sendable, Equatable, Hashable {
    public var kind: PhaseKind
    public var target: PhaseTarget
    /// The pace or heart-rate band to stay in (`@ 6:00-6:30/km`, `@ hr 140-150`).
    public var band: TargetBand?
    /// The heart rate that ends the phase (`until hr 150`).
    public var until: HeartRateCondition?

    public init(_ kind: PhaseKind, _ target: PhaseTarget, band: TargetBand? = nil, until: HeartRateCondition? = nil) {
        self.kind = kind
        self.target = target
        self.band = band
        self.until = until
    }
}

/// A workout: the text it was written as and the flat list of phases it expands to.
public struct Workout: Sendable, Equatable {
    /// The spec as the user typed it (or the saved workout's name).
    public var spec: String
    public var phases: [PlannedPhase]

    public init(spec: String, phases: [PlannedPhase]) {
        self.spec = spec
        self.phases = phases
    }

    /// Parses a compact workout spec such as `"5m warmup, 8x(90s run, 60s walk), 5m cooldown"`.
    public init(parsing spec: String) throws(WorkoutSpecError) {
        var parser = WorkoutSpecParser(spec)
        self.init(spec: spec, phases: try parser.parse())
    }

    /// The planned total duration, when every phase is a time phase (not one ending on the heart rate).
    public var plannedDuration: Duration? {
        var total = Duration.zero
        for phase in phases {
            guard case .duration(let d) = phase.target, phase.until == nil else { return nil }
            total += d
        }
        return total
    }
}

extension Duration {
    /// The duration as floating-point seconds (for output and arithmetic with distances).
    public var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }

    /// A duration from floating-point seconds, rounded to the microsecond.
    public static func seconds(double value: Double) -> Duration {
        .microseconds(Int64((value * 1_000_000).rounded()))
    }
}
