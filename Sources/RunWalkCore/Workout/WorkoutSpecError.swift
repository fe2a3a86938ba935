/// Why a workout spec could not be read, and where (1-based column, in characters).
public struct WorkoutSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, with the offending text.
    public enum Reason: Equatable, Sendable {
        case empty
        case unknownPhase(String, suggestion: String?)
        case badQuantity(String, detail: String)
        case quantityWithoutPhase(String)
        case phaseWithoutQuantity(String)
        case expectedOpenParenthesis(after: String)
        case unclosedParenthesis(openedAtColumn: Int)
        case unmatchedCloseParenthesis
        case badRepeatCount(String)
        case repeatsNothing(String)
        case missingPhaseAfterComma
        case unexpectedCharacter(Character)
        case tooManyPhases(limit: Int)
        case nestedTooDeeply(limit: Int)
        /// A pace or heart-rate band that cannot be read (`@ 6:00-6:30/kn`).
        case badTarget(String, detail: String)
        /// An `until hr` condition that cannot be read.
        case badCondition(String, detail: String)
        /// `min` or `max` on a phase without an `until` condition.
        case boundWithoutCondition(String)
        /// An `@` with no phase before it.
        case targetWithoutPhase(String)
    }

    public var reason: Reason
    /// 1-based column of the first offending character.
    public var column: Int
    /// How many characters the caret line underlines (at least one).
    public var length: Int

    public init(_ reason: Reason, column: Int, length: Int = 1) {
        self.reason = reason
        self.column = column
        self.length = max(1, length)
    }

    /// One line: what is wrong and at which column.
    public var description: String {
        "\(what) at column \(column)\(hint)"
    }

    /// What is wrong, without the column (for messages that give the position themselves).
    public var cause: String { what + hint }

    private var what: String {
        switch reason {
        case .empty: return "empty workout spec"
        case .unknownPhase(let word, _): return "unknown phase \"\(UserText.printable(word))\""
        case .badQuantity(let text, let detail): return "bad duration or distance \"\(UserText.printable(text))\" (\(detail))"
        case .quantityWithoutPhase(let text): return "\"\(UserText.printable(text))\" is not followed by a phase (warmup, run, walk, cooldown)"
        case .phaseWithoutQuantity(let word): return "phase \"\(UserText.printable(word))\" has no duration or distance"
        case .expectedOpenParenthesis(let after): return "expected \"(\" after repeat count \"\(UserText.printable(after))\""
        case .unclosedParenthesis(let opened): return "the \"(\" at column \(opened) is never closed: expected \")\""
        case .unmatchedCloseParenthesis: return "\")\" without a matching \"(\""
        case .badRepeatCount(let text): return "bad repeat count \"\(UserText.printable(text))\""
        case .repeatsNothing(let text): return "\"\(UserText.printable(text))\" repeats nothing"
        case .missingPhaseAfterComma: return "expected a phase after \",\""
        case .unexpectedCharacter(let c): return "unexpected character \"\(UserText.printable(String(c)))\""
        case .tooManyPhases(let limit): return "the workout expands to more than \(limit) phases"
        case .nestedTooDeeply(let limit): return "repeats nested more than \(limit) deep"
        case .badTarget(let text, let detail): return "bad target \"\(UserText.printable(text))\" (\(detail))"
        case .badCondition(let text, let detail): return "bad heart-rate condition at \"\(UserText.printable(text))\" (\(detail))"
        case .boundWithoutCondition(let word): return "\"\(UserText.printable(word))\" bounds only an \"until hr\" phase"
        case .targetWithoutPhase(let text): return "\"\(UserText.printable(text))\" is not after a phase (\"90s run @ 6:00-6:30/km\")"
        }
    }

    private var hint: String {
        switch reason {
        case .unknownPhase(_, let suggestion?): return " (did you mean \"\(suggestion)\"?)"
        case .unknownPhase: return " (phases are warmup, run, walk, cooldown)"
        default: return ""
        }
    }

    /// The spec and a caret line under the offending part, for a terminal.
    /// A long spec is shown as a window around the column, control characters escaped.
    public func caretLines(spec: String) -> String {
        let characters = Array(spec)
        let window = UserText.defaultLimit
        let start = max(0, min(column - 1 - window / 2, characters.count - window))
        let end = min(characters.count, start + window)
        let before = UserText.escapingControls(String(characters[start..<min(max(start, column - 1), end)]))
        let shown = (start > 0 ? "…" : "") + UserText.escapingControls(String(characters[start..<end])) + (end < characters.count ? "…" : "")
        let pad = String(repeating: " ", count: before.count + (start > 0 ? 1 : 0))
        return "  \(shown)\n  \(pad)\(String(repeating: "^", count: min(length, window)))"
    }
}
