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
        case .unknownPhase(let word, _): return "unknown phase \"\(word)\""
        case .badQuantity(let text, let detail): return "bad duration or distance \"\(text)\" (\(detail))"
        case .quantityWithoutPhase(let text): return "\"\(text)\" is not followed by a phase (warmup, run, walk, cooldown)"
        case .phaseWithoutQuantity(let word): return "phase \"\(word)\" has no duration or distance"
        case .expectedOpenParenthesis(let after): return "expected \"(\" after repeat count \"\(after)\""
        case .unclosedParenthesis(let opened): return "the \"(\" at column \(opened) is never closed: expected \")\""
        case .unmatchedCloseParenthesis: return "\")\" without a matching \"(\""
        case .badRepeatCount(let text): return "bad repeat count \"\(text)\""
        case .repeatsNothing(let text): return "\"\(text)\" repeats nothing"
        case .missingPhaseAfterComma: return "expected a phase after \",\""
        case .unexpectedCharacter(let c): return "unexpected character \"\(c)\""
        case .tooManyPhases(let limit): return "the workout expands to more than \(limit) phases"
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
    public func caretLines(spec: String) -> String {
        let pad = String(repeating: " ", count: max(0, column - 1))
        return "  \(spec)\n  \(pad)\(String(repeating: "^", count: length))"
    }
}
