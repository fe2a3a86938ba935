/// How a stretch of text looks; turned into ANSI SGR only when colour is on.
public struct TextStyle: Sendable, Equatable {
    /// ANSI foreground colour number (30–37, 90–97), nil for the terminal's own.
    public var foreground: Int?
    /// ANSI background colour number (40–47, 100–107), nil for none.
    public var background: Int?
    /// Bold (SGR 1); also brightens colours on many terminals.
    public var bold: Bool
    /// Faint (SGR 2), for captions and hints.
    public var dim: Bool

    /// A style from its parts; the defaults are the terminal's own look.
    public init(foreground: Int? = nil, background: Int? = nil, bold: Bool = false, dim: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
    }

    /// The terminal's default look.
    public static let plain = TextStyle()

    /// The SGR sequence that sets this style from a reset.
    var sgr: String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if let foreground { codes.append(String(foreground)) }
        if let background { codes.append(String(background)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

/// One row of the screen as styled pieces; knows its width in columns, so nothing is drawn past
/// the edge.
///
/// Every character the renderer uses is one column wide (ASCII, box and block elements), so a
/// row's width is its character count.
public struct ScreenLine: Sendable, Equatable {
    /// The pieces, left to right.
    public var segments: [(text: String, style: TextStyle)]

    /// A row of the given pieces (none: an empty row).
    public init(_ segments: [(text: String, style: TextStyle)] = []) { self.segments = segments }

    /// A row of one piece.
    public init(_ text: String, _ style: TextStyle = .plain) { self.segments = [(text, style)] }

    /// Columns the row takes.
    public var width: Int { segments.reduce(0) { $0 + $1.text.count } }

    /// The row's text without styles.
    public var plain: String { segments.map(\.text).joined() }

    /// Appends a piece.
    public mutating func append(_ text: String, _ style: TextStyle = .plain) { segments.append((text, style)) }

    /// The row cut to `columns`.
    public func truncated(to columns: Int) -> ScreenLine {
        var left = max(0, columns)
        var result = ScreenLine()
        for segment in segments where left > 0 {
            let piece = String(segment.text.prefix(left))
            left -= piece.count
            result.append(piece, segment.style)
        }
        return result
    }

    /// The row centred in `columns` (cut when longer); the padding keeps the first piece's background
    /// only when `fill` is set, so a coloured bar spans the whole width.
    public func centred(in columns: Int, fill: TextStyle? = nil) -> ScreenLine {
        let cut = truncated(to: columns)
        let spare = columns - cut.width
        guard spare > 0 else { return cut }
        var result = ScreenLine(String(repeating: " ", count: spare / 2), fill ?? .plain)
        result.segments += cut.segments
        if fill != nil { result.append(String(repeating: " ", count: spare - spare / 2), fill ?? .plain) }
        return result
    }

    /// The text with SGR sequences when `colour` is on, ending with a reset.
    public func encoded(colour: Bool) -> String {
        guard colour else { return plain }
        var out = ""
        var current = TextStyle.plain
        for segment in segments where !segment.text.isEmpty {
            if segment.style != current { out += segment.style.sgr; current = segment.style }
            out += segment.text
        }
        if current != .plain { out += TextStyle.plain.sgr }
        return out
    }

    /// Same pieces with the same styles (tuples are not Equatable, so this is written out).
    public static func == (lhs: ScreenLine, rhs: ScreenLine) -> Bool {
        lhs.segments.count == rhs.segments.count
            && zip(lhs.segments, rhs.segments).allSatisfy { $0.text == $1.text && $0.style == $1.style }
    }
}
