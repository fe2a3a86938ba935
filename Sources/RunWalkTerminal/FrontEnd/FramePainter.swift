/// Turns frames into the bytes that draw them, sending only the rows that changed since the last
/// frame (all of them after a resize), each row positioned absolutely and cleared before it is drawn.
struct FramePainter {
    private var last: [String] = []
    private var lastSize = (columns: 0, rows: 0)

    /// The bytes that bring the screen from the last frame to `frame`; empty when nothing changed.
    mutating func paint(_ frame: [String], columns: Int, rows: Int, forceAll: Bool) -> [UInt8] {
        let full = forceAll || columns != lastSize.columns || rows != lastSize.rows || last.count != frame.count
        // No ED 2 ("clear screen") even for a full redraw: tmux pushes a cleared screen into its
        // history after a resize, and it came back on the main screen at exit. Each row is cleared
        // by EL 2 as it is drawn, which covers the whole screen.
        var out = ""
        for (index, line) in frame.enumerated() where full || line != last[index] {
            out += "\u{1B}[\(index + 1);1H\u{1B}[0m\u{1B}[2K" + line
        }
        last = frame
        lastSize = (columns, rows)
        return Array(out.utf8)
    }
}
