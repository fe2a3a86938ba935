/// Makes text from input files and arguments safe to show in a message.
///
/// Bytes a user did not type into the terminal themselves (a GPX attribute, a workout name,
/// a file name) can hold escape sequences that retitle or clear the terminal, or be megabytes
/// long; every message that embeds such text passes it through `printable`.
public enum UserText {
    /// How many characters of a value a message shows before cutting it short with "…".
    public static let defaultLimit = 80

    /// `text` with control characters escaped (`\e`, `\t`, `\n`, `\r`, `\x07`, `\u{202E}`) and cut
    /// to `limit` characters followed by "…".
    public static func printable<S: StringProtocol>(_ text: S, limit: Int = defaultLimit) -> String {
        var result = ""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown >= limit {
                result += "…"
                return result
            }
            result += escaped(scalar)
            shown += 1
        }
        return result
    }

    /// A file path for a message: escaped like `printable`, cut only when absurdly long (a
    /// path is something the user copies, so it is shown whole up to 1024 characters).
    public static func path<S: StringProtocol>(_ path: S) -> String {
        printable(path, limit: 1024)
    }

    /// `text` with control characters escaped but newlines kept: for whole messages whose line
    /// structure is intended (a spec error's caret line), as a last line of defence.
    public static func escapingControls<S: StringProtocol>(_ text: S) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            result += scalar == "\n" ? "\n" : escaped(scalar)
        }
        return result
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1B: return "\\e"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x00..<0x20, 0x7F, 0x80..<0xA0:
            return "\\x" + hex(scalar.value, digits: 2)
        // Bidirectional overrides and isolates reorder what follows them on screen.
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C:
            return "\\u{" + hex(scalar.value, digits: 4) + "}"
        default:
            return String(scalar)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
