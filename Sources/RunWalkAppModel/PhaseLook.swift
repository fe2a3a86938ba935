import RunWalkCore

/// How a phase kind is named and tinted on the app's pages.
public enum PhaseLook {
    /// The phase in words, as the live page's title shows it.
    public static func word(_ kind: PhaseKind) -> String {
        switch kind {
        case .warmup: return "Warm-up"
        case .run: return "Run"
        case .walk: return "Walk"
        case .cooldown: return "Cool-down"
        }
    }

    /// The CSS class that tints a page or a timeline segment for the phase.
    public static func cssClass(_ kind: PhaseKind) -> String {
        "phase-" + kind.rawValue
    }

    /// Every CSS class `cssClass` can return, so a page can drop the old tint before adding the new one.
    public static let allCSSClasses = PhaseKind.allCases.map(cssClass) + ["phase-idle", "phase-done"]

    /// A planned target in words: "1:30" for time, "400 m" or "1.50 km" for distance.
    public static func target(_ target: PhaseTarget) -> String {
        switch target {
        case .duration(let d): return TimeText.clock(d.seconds)
        case .distance(let metres): return Format.metres(metres)
        }
    }
}
