/// Decides what to say for engine events and splits (English, metric or imperial).
public struct CuePlanner: Sendable {
    public var units: Units
    public var enabled: Set<CueKind>

    public init(units: Units = .metric, enabled: Set<CueKind> = Set(CueKind.allCases)) {
        self.units = units
        self.enabled = enabled
    }

    /// Cues for one engine event.
    public func cues(for event: EngineEvent, workout: Workout) -> [Cue] {
        let at = event.time.seconds
        switch event {
        case .phaseStarted(let index, _):
            return make(at, Self.transition(workout.phases[index], units: units), .transition)
        case .countdown(let n, _, _):
            return make(at, "\(n)", .countdown)
        case .halfway:
            return make(at, "Halfway.", .halfway)
        case .paused:
            return make(at, "Paused.", .pauseResume)
        case .resumed:
            return make(at, "Resumed.", .pauseResume)
        case .phaseEnded, .workoutCompleted, .workoutStopped:
            return []
        }
    }

    /// The closing cue with the workout's totals.
    public func completion(atSeconds at: Double, distanceMetres: Double, durationSeconds: Double) -> [Cue] {
        make(at, "Workout complete. \(SpokenText.distance(distanceMetres, units: units)) in \(SpokenText.duration(durationSeconds)).", .complete)
    }

    /// The GPS signal went away (or there has been none yet).
    public func gpsLost(atSeconds at: Double, reason: GPSGap.Reason) -> [Cue] {
        make(at, reason == .noFixYet ? "Waiting for GPS." : "GPS signal lost.", .gps)
    }

    /// Fixes are back after a gap.
    public func gpsBack(atSeconds at: Double, after reason: GPSGap.Reason) -> [Cue] {
        make(at, reason == .noFixYet ? "GPS ready." : "GPS back.", .gps)
    }

    /// A split announcement.
    public func cues(for split: Split) -> [Cue] {
        let unitWord = units == .metric ? "Kilometre" : "Mile"
        let pace = units == .metric ? split.paceSecondsPerKm : split.paceSecondsPerKm * 1.609344
        let per = units == .metric ? "per kilometre" : "per mile"
        return make(split.elapsedSeconds,
                    "\(unitWord) \(split.index) in \(SpokenText.clock(split.elapsedSeconds)). Pace \(SpokenText.clock(pace)) \(per).",
                    .split)
    }

    private func make(_ at: Double, _ text: String, _ kind: CueKind) -> [Cue] {
        enabled.contains(kind) ? [Cue(atSeconds: at, text: text, kind: kind)] : []
    }

    static func transition(_ phase: PlannedPhase, units: Units) -> String {
        let verb: String
        switch phase.kind {
        case .warmup: verb = "Warm up"
        case .run: verb = "Run"
        case .walk: verb = "Walk"
        case .cooldown: verb = "Cool down"
        }
        switch phase.target {
        case .duration(let d): return "\(verb) for \(SpokenText.duration(d.seconds))."
        case .distance(let m): return "\(verb) for \(SpokenText.distance(m, units: units))."
        }
    }
}

/// Measurement system for distances and paces.
public enum Units: String, Sendable, Codable, CaseIterable {
    case metric, imperial

    /// Metres in one split unit.
    public var splitMetres: Double { self == .metric ? 1000 : 1609.344 }
}

/// Numbers as a speaking voice says them.
public enum SpokenText {
    /// "90 seconds", "5 minutes", "2 minutes 30 seconds", "1 hour 5 minutes".
    public static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        if h == 0, m < 2, total <= 120, s != 0 || m == 0 { return plural(total, "second") }
        var parts: [String] = []
        if h > 0 { parts.append(plural(h, "hour")) }
        if m > 0 { parts.append(plural(m, "minute")) }
        if s > 0 { parts.append(plural(s, "second")) }
        return parts.joined(separator: " ")
    }

    /// "12 minutes 40" for a clock-like time (split times, paces).
    public static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        var text = h > 0 ? "\(plural(h, "hour")) \(plural(m, "minute"))" : plural(m, "minute")
        if s > 0 { text += " \(s)" }
        return text
    }

    /// "400 metres", "1 point 5 kilometres", "3 miles".
    public static func distance(_ metres: Double, units: Units) -> String {
        if units == .imperial {
            let miles = metres / 1609.344
            if miles < 0.25 { return plural(Int((metres / 0.9144).rounded()), "yard") }
            return decimal(miles, "mile")
        }
        if metres < 1000 { return plural(Int(metres.rounded()), "metre") }
        return decimal(metres / 1000, "kilometre")
    }

    private static func decimal(_ value: Double, _ unit: String) -> String {
        let tenths = Int((value * 10).rounded())
        if tenths % 10 == 0 { return plural(tenths / 10, unit) }
        return "\(tenths / 10) point \(tenths % 10) \(unit)s"
    }

    private static func plural(_ n: Int, _ word: String) -> String { n == 1 ? "1 \(word)" : "\(n) \(word)s" }
}
