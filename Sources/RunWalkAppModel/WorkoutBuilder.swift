import RunWalkCore

/// The start page's simple builder: warm-up, run, walk, repeats and cool-down steppers that
/// write a spec the parser reads back.
public struct WorkoutBuilder: Equatable, Sendable {
    /// Warm-up minutes (0: none).
    public var warmupMinutes: Int
    /// Seconds of each run.
    public var runSeconds: Int
    /// Seconds of each walk (0: none).
    public var walkSeconds: Int
    /// How many run/walk pairs.
    public var repeats: Int
    /// Cool-down minutes (0: none).
    public var cooldownMinutes: Int

    /// A builder with Galloway-like defaults (5 min, 8 × (1:30 run, 1:00 walk), 5 min).
    public init(warmupMinutes: Int = 5, runSeconds: Int = 90, walkSeconds: Int = 60, repeats: Int = 8, cooldownMinutes: Int = 5) {
        self.warmupMinutes = warmupMinutes
        self.runSeconds = runSeconds
        self.walkSeconds = walkSeconds
        self.repeats = repeats
        self.cooldownMinutes = cooldownMinutes
    }

    /// The spec, e.g. "5m warmup, 8x(90s run, 60s walk), 5m cooldown".
    public var spec: String {
        var parts: [String] = []
        if warmupMinutes > 0 { parts.append("\(warmupMinutes)m warmup") }
        let run = "\(Self.duration(max(1, runSeconds))) run"
        let pair = walkSeconds > 0 ? "\(run), \(Self.duration(walkSeconds)) walk" : run
        let count = max(1, repeats)
        parts.append(count == 1 ? pair : "\(count)x(\(pair))")
        if cooldownMinutes > 0 { parts.append("\(cooldownMinutes)m cooldown") }
        return parts.joined(separator: ", ")
    }

    /// "90s", "2m" or "2m30s": the spec's own duration words.
    static func duration(_ seconds: Int) -> String {
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        if seconds < 120 { return "\(seconds)s" }
        return "\(seconds / 60)m\(seconds % 60)s"
    }
}
