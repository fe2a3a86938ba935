/// The key help, drawn as a box over the middle of a frame.
enum HelpOverlay {
    static let entries: [(keys: String, action: String)] = [
        ("space, p", "pause / resume"),
        ("n", "next phase (skip)"),
        ("b", "restart this phase"),
        ("s", "start now, fix or not"),
        ("q q", "stop the workout"),
        ("m, >", "music: play/pause, next"),
        ("?", "this help"),
    ]

    /// `frame` with the box drawn over its middle rows; the box shrinks (and drops entries) to fit.
    static func draw(over frame: [ScreenLine], columns: Int, rows: Int) -> [ScreenLine] {
        let keyWidth = entries.map(\.keys.count).max() ?? 0
        var body = entries.map { " " + $0.keys.padding(to: keyWidth) + "  " + $0.action + " " }
        body.append(" any key closes this")
        let inner = min(max(body.map(\.count).max() ?? 0, 4), max(0, columns - 4))
        guard inner > 0, rows >= 3 else { return frame }
        // Title and bottom borders take two rows; entries beyond the room are left out.
        body = Array(body.prefix(max(0, rows - 2)))
        let style = TextStyle(foreground: 97, background: 44, bold: true)
        var box = [ScreenLine("┌" + " Keys ".prefix(inner).padding(to: inner, with: "─") + "┐", style)]
        box += body.map { ScreenLine("│" + String($0.prefix(inner)).padding(to: inner) + "│", style) }
        box.append(ScreenLine("└" + String(repeating: "─", count: inner) + "┘", style))
        var result = frame
        let top = max(0, (rows - box.count) / 2)
        for (offset, line) in box.enumerated() where top + offset < result.count {
            result[top + offset] = line.centred(in: columns).truncated(to: columns)
        }
        return result
    }
}

extension StringProtocol {
    /// The text padded on the right to `width` with `pad`.
    func padding(to width: Int, with pad: Character = " ") -> String {
        String(self) + String(repeating: pad, count: Swift.max(0, width - count))
    }
}
