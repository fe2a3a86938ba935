import RunWalkCore
import RunWalkIO

/// The start page's check of a typed workout: the error with the part it names, or a preview
/// (a timeline strip of the phases with the total time and distance).
public struct SpecPreview: Equatable, Sendable {
    /// One segment of the timeline strip.
    public struct Segment: Equatable, Sendable {
        /// The phase kind, which gives the segment its colour.
        public var kind: PhaseKind
        /// Its share of the strip's width, 0…1 (distance phases count by an assumed pace).
        public var share: Double
        /// "Run 1:30", for screen readers and tooltips.
        public var label: String
    }

    /// What a bad spec looks like to the user.
    public struct Problem: Equatable, Sendable {
        /// "unknown phase "jgo" (did you mean "jog"?) at column 7".
        public var message: String
        /// The offending part of the spec, as typed ("jgo").
        public var part: String
        /// Where the wrong part starts, in characters from 0, to underline it.
        public var offset: Int
        /// How many characters are wrong (at least one where the text has any).
        public var length: Int
    }

    /// The parsed workout, nil when the spec is bad.
    public var workout: Workout?
    /// Why it is bad, nil when it is good.
    public var problem: Problem?
    /// The strip's segments, in order.
    public var segments: [Segment]
    /// "18 phases · 40:00 · 800 m by distance", or the problem's message.
    public var summary: String

    /// Pace assumed to give distance phases a width on the strip (6:00 /km).
    public static let assumedPaceSecondsPerKm = 360.0

    /// Checks `spec` (a spec, or the name of a workout in `library`).
    public init(_ spec: String, library: WorkoutLibrary = WorkoutLibrary()) {
        let text = library.entry(named: spec.trimmingWhitespace())?.spec ?? spec
        do {
            let workout = try Workout(parsing: text)
            self.workout = workout
            problem = nil
            let seconds = workout.phases.map { Self.seconds($0.target) }
            let total = seconds.reduce(0, +)
            segments = zip(workout.phases, seconds).map { phase, s in
                Segment(kind: phase.kind, share: total > 0 ? s / total : 0,
                        label: PhaseLook.word(phase.kind) + " " + PhaseLook.target(phase.target))
            }
            summary = Self.totals(workout)
        } catch {
            workout = nil
            let characters = Array(text)
            let offset = min(max(0, error.column - 1), characters.count)
            let end = min(characters.count, offset + error.length)
            let part = String(characters[offset..<end])
            problem = Problem(message: error.description, part: part, offset: offset, length: end - offset)
            segments = []
            summary = error.description
        }
    }

    /// "18 phases · 40:00" plus " · 1.20 km by distance" when some phases are by distance.
    public static func totals(_ workout: Workout) -> String {
        var time = 0.0, metres = 0.0
        for phase in workout.phases {
            switch phase.target {
            case .duration(let d): time += d.seconds
            case .distance(let m): metres += m
            }
        }
        var parts = ["\(workout.phases.count) phase" + (workout.phases.count == 1 ? "" : "s")]
        if time > 0 { parts.append(TimeText.clock(time)) }
        if metres > 0 { parts.append(Format.metres(metres) + " by distance") }
        return parts.joined(separator: " · ")
    }

    private static func seconds(_ target: PhaseTarget) -> Double {
        switch target {
        case .duration(let d): return d.seconds
        case .distance(let m): return m / 1000 * assumedPaceSecondsPerKm
        }
    }
}
