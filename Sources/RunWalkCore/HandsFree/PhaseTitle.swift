/// The short texts hands-free surfaces show for a phase: the lock screen's media title
/// ("Run 3 of 8 · 1:12 left") and the phase notification ("Walk · 1:00 · 3 of 8").
public enum PhaseTitle {
    /// The phase's word with a capital, as a title starts ("Warm-up", "Run").
    public static func word(_ kind: PhaseKind) -> String {
        switch kind {
        case .warmup: "Warm-up"
        case .run: "Run"
        case .walk: "Walk"
        case .cooldown: "Cool-down"
        }
    }

    /// `Run 3 of 8 · 1:12 left` (`· 350 m left` for a distance phase); `index` is 0-based.
    /// Seconds are rounded up, so the title reads 0:01 until the phase really ends.
    public static func title(kind: PhaseKind, index: Int, count: Int, remainingSeconds: Double?,
                             remainingMetres: Double?, paused: Bool = false) -> String {
        var text = "\(word(kind)) \(index + 1) of \(count)"
        if let remainingSeconds {
            text += " · \(TimeText.clock(remainingSeconds, rounding: .up)) left"
        } else if let remainingMetres {
            text += " · \(Int(max(0, remainingMetres).rounded())) m left"
        }
        return paused ? text + " · paused" : text
    }

    /// `Walk · 1:00 · 3 of 8`: the phase as planned, for a notification at its start.
    public static func notification(kind: PhaseKind, index: Int, count: Int, plannedSeconds: Double?,
                                    plannedMetres: Double?) -> String {
        var parts = [word(kind)]
        if let plannedSeconds {
            parts.append(TimeText.clock(plannedSeconds))
        } else if let plannedMetres {
            parts.append(plannedMetres >= 1000 ? "\(Double(Int((plannedMetres / 10).rounded())) / 100) km"
                                               : "\(Int(plannedMetres.rounded())) m")
        }
        parts.append("\(index + 1) of \(count)")
        return parts.joined(separator: " · ")
    }
}
