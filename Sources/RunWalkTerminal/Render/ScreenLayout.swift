/// What one frame shows, before it is fitted to a size: a header, big digits and lines that give way
/// (lowest importance first) when the terminal is short.
struct ScreenLayout {
    /// A line and how much it matters: 0 is kept at any size, higher numbers go first.
    struct Item {
        var line: ScreenLine
        var importance: Int
        /// A coloured bar that spans the whole width.
        var fill: TextStyle?
        /// Centred rather than left-aligned (with a margin).
        var centred = false
    }

    /// The top row: the phase (or stage) in words, over the whole width in its colour.
    var header: Item
    /// The big digits and their style; nil when the frame has none.
    var big: (text: String, style: TextStyle)?
    /// Lines right under the big digits (their caption, PAUSED).
    var underBig: [Item] = []
    /// The information lines, top to bottom.
    var body: [Item] = []
    /// The bottom lines (keys, prompts).
    var footer: [Item] = []

    /// Fewest rows worth giving big digits before lines are dropped for them.
    static let preferredBigRows = 5

    /// The frame: exactly `rows` lines, none wider than `columns`.
    func fit(columns: Int, rows: Int) -> [ScreenLine] {
        guard rows > 0 else { return [] }
        let columns = max(0, columns)
        var under = underBig, body = self.body, footer = self.footer
        let available = rows - 1
        func count() -> Int { under.count + body.count + footer.count }
        // Drop the least important lines until the big digits get their preferred rows.
        let wanted = big == nil ? 0 : Self.preferredBigRows
        while available - count() < wanted {
            let all = under.map(\.importance) + body.map(\.importance) + footer.map(\.importance)
            guard let worst = all.max(), worst > 0 else { break }
            if let index = footer.lastIndex(where: { $0.importance == worst }) { footer.remove(at: index) }
            else if let index = body.lastIndex(where: { $0.importance == worst }) { body.remove(at: index) }
            else if let index = under.lastIndex(where: { $0.importance == worst }) { under.remove(at: index) }
        }
        // Still too many for the screen: keep the most important, in order.
        while count() > max(0, available) {
            if !footer.isEmpty, footer.count >= body.count { footer.removeLast() }
            else if !body.isEmpty { body.removeLast() }
            else if !under.isEmpty { under.removeLast() }
            else { footer.removeLast() }
        }

        var bigLines: [ScreenLine] = []
        if let big {
            let room = available - count()
            let cap = max(Self.preferredBigRows, rows * 55 / 100)
            if let scale = BlockFont.bestScale(for: big.text, columns: columns, rows: min(room, cap)),
               BlockFont.rows(height: scale.height) >= 3 {
                bigLines = BlockFont.render(big.text, width: scale.width, height: scale.height).map { ScreenLine($0, big.style) }
            } else if room >= 1 {
                // No room for block digits: the time as plain text, still first.
                bigLines = [ScreenLine(big.text, TextStyle(foreground: big.style.foreground, bold: true))]
            }
        }

        // Spare rows: a third above the digits, a third between digits and lines, the rest above the footer.
        let spare = max(0, available - count() - bigLines.count)
        let above = spare / 3, between = spare / 3, beforeFooter = spare - above - between
        var frame: [ScreenLine] = [place(header, columns)]
        frame += Array(repeating: ScreenLine(), count: above)
        frame += bigLines.map { $0.centred(in: columns) }
        frame += under.map { place($0, columns) }
        frame += Array(repeating: ScreenLine(), count: between)
        // On a wide screen the information lines stand as one block in the middle, not at the edge.
        let blockWidth = body.filter { $0.fill == nil && !$0.centred }.map(\.line.width).max() ?? 0
        let margin = columns > 60 ? max(1, (columns - blockWidth) / 2) : 1
        frame += body.map { place($0, columns, margin: margin) }
        frame += Array(repeating: ScreenLine(), count: beforeFooter)
        frame += footer.map { place($0, columns) }
        frame = Array(frame.prefix(rows))
        while frame.count < rows { frame.append(ScreenLine()) }
        return frame.map { $0.truncated(to: columns) }
    }

    private func place(_ item: Item, _ columns: Int, margin: Int = 1) -> ScreenLine {
        if item.fill != nil || item.centred { return item.line.centred(in: columns, fill: item.fill) }
        var line = ScreenLine(String(repeating: " ", count: margin))
        line.segments += item.line.segments
        return line.truncated(to: columns)
    }
}
