/// A runner's `key = value` text file (settings.conf, workouts.txt) edited line by line, so that
/// what the app changes is the one line it means and everything else stays as the runner wrote it:
/// comments, blank lines, order, spacing, keys the editor does not know, the line-ending style.
///
/// Pure text in, text out; the caller reads and writes the file (atomically) and checks the
/// result with the file's own parser before writing (see `SettingsDocument`, `WorkoutsDocument`).
public struct ConfigDocument: Sendable, Equatable {
    /// One line without its line break.
    public private(set) var lines: [String]
    /// The file's line break ("\n", or "\r\n" when the file used it).
    public let lineBreak: String
    /// Whether the text ended with a line break (kept as it was).
    private var endsWithBreak: Bool
    /// Key comparison: exact for settings, case-insensitive for workout names.
    private let caseInsensitive: Bool

    /// Splits `text` into lines; keys compare case-insensitively when `caseInsensitiveKeys`.
    public init(text: String, caseInsensitiveKeys: Bool = false) {
        lineBreak = text.contains("\r\n") ? "\r\n" : "\n"
        caseInsensitive = caseInsensitiveKeys
        if text.isEmpty {
            lines = []
            endsWithBreak = true
            return
        }
        var split = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        endsWithBreak = text.last?.isNewline ?? false
        if endsWithBreak { split.removeLast() }
        lines = split
    }

    /// The text to write.
    public var text: String {
        lines.joined(separator: lineBreak) + (lines.isEmpty || !endsWithBreak ? "" : lineBreak)
    }

    /// The key of a line (before `=`, trimmed), nil for blank, comment and malformed lines.
    public static func key(of line: String) -> String? {
        let content = line.prefix { $0 != "#" }
        guard let equals = content.firstIndex(of: "=") else { return nil }
        let key = String(content[..<equals]).trimmingBlanks
        return key.isEmpty ? nil : key
    }

    /// The value of a line (after `=`, up to a `#` comment for settings), nil when it has none.
    public static func value(of line: String, commentsAfterValue: Bool = true) -> String? {
        let content = commentsAfterValue ? Substring(line.prefix { $0 != "#" }) : Substring(line)
        guard let equals = content.firstIndex(of: "=") else { return nil }
        return String(content[content.index(after: equals)...]).trimmingBlanks
    }

    private func matches(_ line: String, _ key: String) -> Bool {
        guard let found = Self.key(of: line) else { return false }
        return caseInsensitive ? found.lowercased() == key.lowercased() : found == key
    }

    /// The 0-based index of the line that sets `key` (the last: a later line wins), nil when none does.
    public func lineIndex(of key: String) -> Int? {
        lines.lastIndex { matches($0, key) }
    }

    /// The value `key` has in the file, nil when no line sets it.
    public func value(of key: String, commentsAfterValue: Bool = true) -> String? {
        lineIndex(of: key).flatMap { Self.value(of: lines[$0], commentsAfterValue: commentsAfterValue) }
    }

    /// Sets `key` to `value`: the line that sets it is changed in place (its indentation, its
    /// spacing around `=` and a trailing comment kept, the comment's column too when it fits);
    /// otherwise a `key = value` line is appended. `commentsAfterValue`: a `#` after the value
    /// starts a comment (settings); a workout spec has none.
    public mutating func set(_ key: String, to value: String, commentsAfterValue: Bool = true) {
        guard let index = lineIndex(of: key) else {
            lines.append("\(key) = \(value)")
            return
        }
        lines[index] = Self.replacingValue(in: lines[index], with: value, commentsAfterValue: commentsAfterValue)
    }

    /// Renames the key of the line that sets `old`, keeping the rest of the line.
    public mutating func rename(_ old: String, to new: String) {
        guard let index = lineIndex(of: old) else { return }
        let line = lines[index]
        guard let equals = line.firstIndex(of: "=") else { return }
        let before = line[..<equals]
        let indent = before.prefix { $0 == " " || $0 == "\t" }
        let spacing = before.reversed().prefix { $0 == " " || $0 == "\t" }
        lines[index] = String(indent) + new + String(spacing.reversed()) + line[equals...]
    }

    /// Removes every line that sets `key`; returns whether there was one.
    @discardableResult
    public mutating func remove(_ key: String) -> Bool {
        let kept = lines.filter { !matches($0, key) }
        defer { lines = kept }
        return kept.count != lines.count
    }

    private static func replacingValue(in line: String, with value: String, commentsAfterValue: Bool) -> String {
        guard let equals = line.firstIndex(of: "=") else { return line }
        let afterEquals = line[line.index(after: equals)...]
        let gap = afterEquals.prefix { $0 == " " || $0 == "\t" }
        let head = String(line[...equals]) + (gap.isEmpty ? " " : String(gap))
        guard commentsAfterValue, let hash = afterEquals.firstIndex(of: "#") else { return head + value }
        // The comment keeps its column when the new value leaves room, else one space after it.
        let oldValueEnd = line[..<hash]
        let trailing = oldValueEnd.reversed().prefix { $0 == " " || $0 == "\t" }.count
        let commentColumn = line.distance(from: line.startIndex, to: hash)
        let padding = max(trailing == 0 ? 0 : 1, commentColumn - (head.count + value.count))
        return head + value + String(repeating: " ", count: padding) + line[hash...]
    }
}
