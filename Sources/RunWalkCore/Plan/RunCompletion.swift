/// How much of a workout's planned running a session did: a plan day counts as done when
/// this reaches the runner's `plan.done_fraction` (0.9 by default), so a session cut short
/// in the cool-down still counts and one abandoned halfway is offered again.
public enum RunCompletion {
    /// The default share of planned run time that makes a plan day done.
    public static let defaultDoneFraction = 0.9

    /// A nominal running speed that puts distance phases on the same scale as time phases
    /// (6:40 per km); only the ratio matters, so the exact value barely does.
    static let nominalRunMetresPerSecond = 2.5

    /// Done run time over planned run time, 0…1 (1 for a workout without run phases).
    /// Time phases count seconds run up to their target, distance phases metres; phases the
    /// session never reached count zero.
    public static func fraction(planned workout: Workout, phases: [Summary.Phase]) -> Double {
        var planned = 0.0, done = 0.0
        for (index, phase) in workout.phases.enumerated() where phase.kind == .run {
            let actual = phases.first { $0.index == index && $0.kind == .run }
            switch phase.target {
            case .duration(let d):
                planned += d.seconds
                done += min(actual?.durationSeconds ?? 0, d.seconds)
            case .distance(let metres):
                planned += metres / nominalRunMetresPerSecond
                done += min(actual?.distanceMetres ?? 0, metres) / nominalRunMetresPerSecond
            }
        }
        return planned > 0 ? done / planned : 1
    }
}
