extension StringProtocol {
    /// The text without white space (spaces, tabs, line breaks) at either end, as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gave it.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
