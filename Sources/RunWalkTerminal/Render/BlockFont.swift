/// Large digits drawn with half blocks (█ ▀ ▄), readable at arm's length on a small terminal.
///
/// Each glyph is a 3×5 bitmap of our own; `render` scales it by whole pixels (`width` columns and
/// `height` half-rows per pixel), so two bitmap rows share one text row through ▀ and ▄.
public enum BlockFont {
    /// Bitmap rows per glyph.
    static let glyphRows = 5

    private static let glyphs: [Character: [String]] = [
        "0": ["###", "#.#", "#.#", "#.#", "###"],
        "1": [".#.", "##.", ".#.", ".#.", "###"],
        "2": ["###", "..#", "###", "#..", "###"],
        "3": ["###", "..#", ".##", "..#", "###"],
        "4": ["#.#", "#.#", "###", "..#", "..#"],
        "5": ["###", "#..", "###", "..#", "###"],
        "6": ["###", "#..", "###", "#.#", "###"],
        "7": ["###", "..#", "..#", "..#", "..#"],
        "8": ["###", "#.#", "###", "#.#", "###"],
        "9": ["###", "#.#", "###", "..#", "###"],
        ":": [".", "#", ".", "#", "."],
        "-": ["...", "...", "###", "...", "..."],
        " ": ["."],
    ]

    /// Whether every character of `text` has a glyph.
    public static func canRender(_ text: String) -> Bool { text.allSatisfy { glyphs[$0] != nil } }

    /// Columns `text` takes at `width` columns per pixel (one pixel of space between glyphs).
    public static func columns(_ text: String, width: Int) -> Int {
        let pixels = text.reduce(0) { $0 + (glyphs[$1]?.first?.count ?? 0) } + max(0, text.count - 1)
        return pixels * width
    }

    /// Text rows the glyphs take at `height` half-rows per pixel.
    public static func rows(height: Int) -> Int { (glyphRows * height + 1) / 2 }

    /// The rows of `text` drawn at the given scale; every row has `columns(text, width:)` characters.
    public static func render(_ text: String, width: Int, height: Int) -> [String] {
        let width = max(1, width), height = max(1, height)
        // The bitmap, one Bool per pixel, glyphs side by side with one pixel between them.
        var bitmap = Array(repeating: [Bool](), count: glyphRows)
        for (offset, character) in text.enumerated() {
            let glyph = glyphs[character] ?? glyphs[" "] ?? []
            for row in 0..<glyphRows {
                if offset > 0 { bitmap[row].append(false) }
                let line = glyph.count == glyphRows ? glyph[row] : String(repeating: ".", count: glyph.first?.count ?? 1)
                bitmap[row].append(contentsOf: line.map { $0 == "#" })
            }
        }
        // Scale: each bitmap row becomes `height` half-rows, each pixel `width` columns.
        var halfRows: [[Bool]] = []
        for row in bitmap {
            let wide = row.flatMap { Array(repeating: $0, count: width) }
            halfRows.append(contentsOf: Array(repeating: wide, count: height))
        }
        if halfRows.count % 2 == 1 { halfRows.append(Array(repeating: false, count: halfRows.first?.count ?? 0)) }
        return stride(from: 0, to: halfRows.count, by: 2).map { index in
            String(zip(halfRows[index], halfRows[index + 1]).map { top, bottom -> Character in
                switch (top, bottom) {
                case (true, true): "█"
                case (true, false): "▀"
                case (false, true): "▄"
                case (false, false): " "
                }
            })
        }
    }

    /// The largest scale at which `text` fits in `columns` × `rows`: width up to `maxWidth`, and a
    /// pixel height between the width and 1.5 times it (a little taller than square reads best),
    /// even where it can be, so every pixel is whole cells (█) and strokes stay straight.
    public static func bestScale(for text: String, columns: Int, rows: Int, maxWidth: Int = 12) -> (width: Int, height: Int)? {
        var width = maxWidth
        while width >= 1 && BlockFont.columns(text, width: width) > columns { width -= 1 }
        guard width >= 1 else { return nil }
        var height = max(2, width + width / 2)
        while height >= 1 && BlockFont.rows(height: height) > rows { height -= 1 }
        guard height >= 1 else { return nil }
        if height > 2 && height % 2 == 1 { height -= 1 }
        // Too flat to read: narrow the pixels so the digits keep their shape.
        if height * 2 < width { width = max(1, height * 2) }
        return (width, height)
    }
}
