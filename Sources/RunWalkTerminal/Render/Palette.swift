import RunWalkCore

/// The screen's colours, one place: each phase kind its own, paused yellow, trouble red.
enum Palette {
    /// The phase's colour as an ANSI foreground number.
    static func colour(_ kind: PhaseKind) -> Int {
        switch kind {
        case .warmup: 36  // cyan
        case .run: 31  // red: effort
        case .walk: 32  // green: recovery
        case .cooldown: 34  // blue
        }
    }

    /// Text in the phase's colour (the big digits, the phase bar).
    static func foreground(_ kind: PhaseKind) -> TextStyle { TextStyle(foreground: colour(kind) + 60, bold: true) }

    /// The header bar: the phase's colour behind bold text that stays readable on it.
    static func header(_ kind: PhaseKind) -> TextStyle {
        TextStyle(foreground: kind == .walk || kind == .warmup ? 30 : 97, background: colour(kind) + 10, bold: true)
    }

    static let paused = TextStyle(foreground: 30, background: 43, bold: true)
    static let waiting = TextStyle(foreground: 30, background: 47, bold: true)
    static let alert = TextStyle(foreground: 97, background: 41, bold: true)
    static let warning = TextStyle(foreground: 33, bold: true)
    static let good = TextStyle(foreground: 32)
}
