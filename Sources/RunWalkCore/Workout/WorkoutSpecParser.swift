/// Reads the compact workout grammar:
/// `"5m warmup, 8x(90s run, 60s walk), 5m cooldown"`, `"10x(400m run, 200m walk)"`,
/// `"run 2:00 walk 1:00 x10"`.
///
/// Durations: `90s`, `2m`, `2m30s`, `1:30`, `1:02:30`, `1h`, `1h30m`, `2min`.
/// Distances: `400m`, `1.5km`, `1mi`, `800metres`. A bare `m` is minutes below 100
/// and metres from 100 up (`5m` is five minutes, `400m` four hundred metres);
/// `min` and `metres` are never ambiguous.
struct WorkoutSpecParser {
    static let maximumPhases = 10_000
    /// How deeply repeats may nest: each level is a recursion, and 12,000 levels overflowed the
    /// stack; no real workout nests more than two or three.
    static let maximumNesting = 32
    private var nesting = 0

    var tokens: [Token]
    var position = 0
    let endColumn: Int

    init(_ spec: String) {
        let characters = Array(spec)
        endColumn = characters.count + 1
        tokens = []
        lexError = nil
        do { tokens = try Self.lex(characters) } catch { lexError = error }
    }

    private var lexError: WorkoutSpecError?

    mutating func parse() throws(WorkoutSpecError) -> [PlannedPhase] {
        if let lexError { throw lexError }
        guard !tokens.isEmpty else { throw WorkoutSpecError(.empty, column: 1) }
        let phases = try parseSequence(openedAt: nil)
        return phases
    }

    // MARK: Grammar

    private mutating func parseSequence(openedAt: Token?) throws(WorkoutSpecError) -> [PlannedPhase] {
        var phases: [PlannedPhase] = []
        while true {
            phases += try parseGroup()
            try checkSize(phases.count, at: current ?? tokens[tokens.count - 1])
            guard let token = current, case .comma = token.kind else { break }
            position += 1
            if current == nil || current?.kind == .close {
                throw WorkoutSpecError(.missingPhaseAfterComma, column: token.column)
            }
        }
        if let open = openedAt {
            guard let token = current, token.kind == .close else {
                throw WorkoutSpecError(.unclosedParenthesis(openedAtColumn: open.column),
                                       column: current?.column ?? endColumn)
            }
            position += 1
        } else if let token = current {
            // Only a stray ")" can stop a top-level sequence early.
            throw WorkoutSpecError(.unmatchedCloseParenthesis, column: token.column)
        }
        return phases
    }

    /// Elements side by side, up to a comma, a ")" or the end; `xN` repeats what precedes it.
    private mutating func parseGroup() throws(WorkoutSpecError) -> [PlannedPhase] {
        var phases: [PlannedPhase] = []
        while let token = current, token.kind != .comma, token.kind != .close {
            if let count = try repeatSuffix() {
                guard !phases.isEmpty else {
                    throw WorkoutSpecError(.repeatsNothing(token.text), column: token.column, length: token.text.count)
                }
                try checkSize(phases.count * count, at: token)
                phases = Array(repeating: phases, count: count).flatMap { $0 }
                continue
            }
            phases += try parseElement()
            try checkSize(phases.count, at: token)
        }
        if phases.isEmpty {
            let token = current
            if token?.kind == .close {
                throw WorkoutSpecError(.unmatchedCloseParenthesis, column: token?.column ?? endColumn)
            }
            throw WorkoutSpecError(.missingPhaseAfterComma, column: token?.column ?? endColumn)
        }
        return phases
    }

    private mutating func parseElement() throws(WorkoutSpecError) -> [PlannedPhase] {
        guard let token = current else { throw WorkoutSpecError(.empty, column: endColumn) }
        position += 1
        switch token.kind {
        case .quantity:
            if let count = try repeatPrefix(token) {
                guard let open = current, open.kind == .open else {
                    throw WorkoutSpecError(.expectedOpenParenthesis(after: token.text),
                                           column: current?.column ?? endColumn)
                }
                guard nesting < Self.maximumNesting else {
                    throw WorkoutSpecError(.nestedTooDeeply(limit: Self.maximumNesting), column: open.column)
                }
                position += 1
                nesting += 1
                let body = try parseSequence(openedAt: open)
                nesting -= 1
                try checkSize(body.count * count, at: token)
                return Array(repeating: body, count: count).flatMap { $0 }
            }
            let target = try Self.quantity(token)
            guard let next = current, next.kind == .word else {
                throw WorkoutSpecError(.quantityWithoutPhase(token.text), column: token.column, length: token.text.count)
            }
            position += 1
            return [try parseTargets(PlannedPhase(try Self.phaseKind(next), target), kindToken: next)]
        case .word:
            let kind = try Self.phaseKind(token)
            if let next = current, next.kind == .word, next.text.lowercased() == "until" {
                return [try parseTargets(try parseCondition(kind, kindToken: token), kindToken: token)]
            }
            guard let next = current, next.kind == .quantity, !Self.isRepeatPrefix(next.text) else {
                throw WorkoutSpecError(.phaseWithoutQuantity(token.text), column: token.column, length: token.text.count)
            }
            position += 1
            return [try parseTargets(PlannedPhase(kind, try Self.quantity(next)), kindToken: token)]
        case .open:
            throw WorkoutSpecError(.badRepeatCount("("), column: token.column)
        case .close:
            throw WorkoutSpecError(.unmatchedCloseParenthesis, column: token.column)
        case .comma:
            throw WorkoutSpecError(.missingPhaseAfterComma, column: token.column)
        case .repeatSuffix:
            throw WorkoutSpecError(.repeatsNothing(token.text), column: token.column, length: token.text.count)
        case .at, .band:
            throw WorkoutSpecError(.targetWithoutPhase(token.text), column: token.column, length: token.text.count)
        }
    }

    /// `8x` or `8 x` before a parenthesis.
    private mutating func repeatPrefix(_ token: Token) throws(WorkoutSpecError) -> Int? {
        if Self.isRepeatPrefix(token.text) {
            return try Self.repeatCount(String(token.text.dropLast()), token: token)
        }
        if token.text.allSatisfy(\.isASCIIDigit), let next = current, next.kind == .word, Self.isTimes(next.text) {
            position += 1
            return try Self.repeatCount(token.text, token: token)
        }
        return nil
    }

    /// `x10` or `x 10` after a group.
    private mutating func repeatSuffix() throws(WorkoutSpecError) -> Int? {
        guard let token = current else { return nil }
        if token.kind == .repeatSuffix {
            position += 1
            return try Self.repeatCount(String(token.text.dropFirst()), token: token)
        }
        if token.kind == .word, Self.isTimes(token.text),
           position + 1 < tokens.count, tokens[position + 1].kind == .quantity,
           tokens[position + 1].text.allSatisfy(\.isASCIIDigit) {
            let countToken = tokens[position + 1]
            position += 2
            return try Self.repeatCount(countToken.text, token: countToken)
        }
        return nil
    }

    var current: Token? { position < tokens.count ? tokens[position] : nil }

    private func checkSize(_ count: Int, at token: Token) throws(WorkoutSpecError) {
        if count > Self.maximumPhases {
            throw WorkoutSpecError(.tooManyPhases(limit: Self.maximumPhases), column: token.column, length: token.text.count)
        }
    }

    // MARK: Words and numbers

    static let phaseWords: [String: PhaseKind] = [
        "warmup": .warmup, "warm-up": .warmup, "run": .run, "walk": .walk,
        "cooldown": .cooldown, "cool-down": .cooldown,
    ]

    private static func phaseKind(_ token: Token) throws(WorkoutSpecError) -> PhaseKind {
        if let kind = phaseWords[token.text.lowercased()] { return kind }
        throw WorkoutSpecError(.unknownPhase(token.text, suggestion: suggestion(for: token.text)),
                               column: token.column, length: token.text.count)
    }

    static func suggestion(for word: String) -> String? {
        let lower = word.lowercased()
        let ranked = phaseWords.keys.sorted().map { ($0, editDistance(lower, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = ranked, distance <= (best.count >= 4 ? 2 : 1) else { return nil }
        return best
    }

    /// Optimal-string-alignment distance: edits, with a swap of neighbours counting as one.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    private static func isTimes(_ text: String) -> Bool { text == "x" || text == "X" || text == "×" }

    private static func isRepeatPrefix(_ text: String) -> Bool {
        guard let last = text.last, isTimes(String(last)), text.count > 1 else { return false }
        return text.dropLast().allSatisfy(\.isASCIIDigit)
    }

    private static func repeatCount(_ digits: String, token: Token) throws(WorkoutSpecError) -> Int {
        guard let n = Int(digits), n >= 1, n <= maximumPhases else {
            throw WorkoutSpecError(.badRepeatCount(token.text), column: token.column, length: token.text.count)
        }
        return n
    }

    /// A duration (`90s`, `2m30s`, `1:30`) or a distance (`400m`, `1.5km`, `1mi`).
    static func quantity(_ token: Token) throws(WorkoutSpecError) -> PhaseTarget {
        let text = token.text
        func fail(_ detail: String) -> WorkoutSpecError {
            WorkoutSpecError(.badQuantity(text, detail: detail), column: token.column, length: text.count)
        }
        if text.contains(":") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3,
                  parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
                  let values = Optional(parts.compactMap { Int($0) }), values.count == parts.count
            else { throw fail("use m:ss or h:mm:ss") }
            guard values.dropFirst().allSatisfy({ $0 < 60 }) else { throw fail("minutes and seconds must be below 60") }
            let seconds = values.reduce(0) { $0 * 60 + $1 }
            guard seconds > 0 else { throw fail("must be more than zero") }
            return .duration(.seconds(seconds))
        }
        // Number-unit pairs: "2m30s", "1h30m", "400m", "1.5km".
        var pairs: [(value: Double, milli: Int64?, unit: String)] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCIIDigit || $0 == "." }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard !number.isEmpty, let value = Double(number), value.isFinite else { throw fail("expected a number") }
            guard !unit.isEmpty else { throw fail("missing unit (s, m, h, km, mi)") }
            pairs.append((value, milliUnits(String(number)), unit.lowercased()))
        }
        var distance: Double?
        var duration = Duration.zero
        for (index, pair) in pairs.enumerated() {
            let unit: String
            if pair.unit == "m" {
                // Ambiguous "m": minutes inside "1h30m"/"2m30s" or below 100, metres from 100 up.
                unit = (pairs.count > 1 || pair.value < 100) ? "min" : "metres"
            } else {
                unit = pair.unit
            }
            if let metresPerUnit = distanceUnits[unit] {
                guard pairs.count == 1 else { throw fail("a distance takes one unit") }
                distance = pair.value * metresPerUnit
            } else if let secondsPerUnit = durationUnits[unit] {
                if index > 0, let previous = durationUnits[normalisedUnit(pairs[index - 1].unit, pairs.count)],
                   previous <= secondsPerUnit {
                    throw fail("units must go from hours to seconds")
                }
                // Exact arithmetic: value in thousandths times the unit's seconds.
                guard let milli = pair.milli else { throw fail("too many decimals") }
                duration += .milliseconds(milli * secondsPerUnit)
            } else {
                throw WorkoutSpecError(.badQuantity(text, detail: "unknown unit \"\(pair.unit)\""),
                                       column: token.column, length: text.count)
            }
        }
        if let distance {
            guard distance > 0 else { throw fail("must be more than zero") }
            guard distance <= 1_000_000 else { throw fail("longer than 1000 km") }
            return .distance(metres: distance)
        }
        guard duration > .zero else { throw fail("must be more than zero") }
        // Ultra runs and long hikes last days; a week still catches a typo's extra digits.
        guard duration <= .seconds(7 * 86_400) else { throw fail("longer than 7 days") }
        return .duration(duration)
    }

    private static func normalisedUnit(_ unit: String, _ count: Int) -> String {
        unit == "m" ? "min" : unit
    }

    /// "1.5" → 1500 (thousandths), nil past three decimals.
    private static func milliUnits(_ number: String) -> Int64? {
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int64(parts[0].isEmpty ? "0" : parts[0]) else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard digits.count <= 3, digits.allSatisfy(\.isASCIIDigit) else { return nil }
            fraction = Int64(digits + String(repeating: "0", count: 3 - digits.count)) ?? 0
        }
        guard whole < 1_000_000 else { return nil }
        return whole * 1000 + fraction
    }

    static let durationUnits: [String: Int64] = [
        "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
        "min": 60, "mins": 60, "minute": 60, "minutes": 60,
        "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    ]

    static let distanceUnits: [String: Double] = [
        "metres": 1, "meters": 1, "metre": 1, "meter": 1,
        "km": 1000, "k": 1000, "mi": 1609.344, "mile": 1609.344, "miles": 1609.344,
    ]

    // MARK: Lexer

    struct Token: Equatable {
        /// `at` is "@"; `band` is the text after it (`6:00-6:30/km`, or after "hr", `140-150`).
        enum Kind: Equatable { case word, quantity, repeatSuffix, open, close, comma, at, band }
        var kind: Kind
        var text: String
        var column: Int
    }

    private static func lex(_ chars: [Character]) throws(WorkoutSpecError) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let column = i + 1
            if c.isWhitespace { i += 1; continue }
            if Self.bandFollows(tokens), !",;()".contains(c) {
                var j = i
                while j < chars.count, !chars[j].isWhitespace, !",;()".contains(chars[j]) { j += 1 }
                // "@ hr 140-150" (or "@hr140-150"): the "hr" is a word, the numbers after it the band.
                if tokens.last?.kind == .at, j - i >= 2, String(chars[i..<(i + 2)]).lowercased() == "hr" {
                    tokens.append(Token(kind: .word, text: String(chars[i..<(i + 2)]), column: column))
                    i += 2
                    continue
                }
                tokens.append(Token(kind: .band, text: String(chars[i..<j]), column: column))
                i = j
                continue
            }
            switch c {
            case "@": tokens.append(Token(kind: .at, text: "@", column: column)); i += 1
            case "(": tokens.append(Token(kind: .open, text: "(", column: column)); i += 1
            case ")": tokens.append(Token(kind: .close, text: ")", column: column)); i += 1
            case ",", ";": tokens.append(Token(kind: .comma, text: String(c), column: column)); i += 1
            default:
                if c.isASCIIDigit || c == "." {
                    var j = i
                    while j < chars.count, chars[j].isASCIIDigit || chars[j] == "." || chars[j] == ":" || chars[j].isLetter || chars[j] == "×" {
                        j += 1
                    }
                    tokens.append(Token(kind: .quantity, text: String(chars[i..<j]), column: column))
                    i = j
                } else if c.isLetter || c == "×" {
                    if (c == "x" || c == "X" || c == "×"), i + 1 < chars.count, chars[i + 1].isASCIIDigit {
                        var j = i + 1
                        while j < chars.count, chars[j].isASCIIDigit { j += 1 }
                        tokens.append(Token(kind: .repeatSuffix, text: String(chars[i..<j]), column: column))
                        i = j
                        continue
                    }
                    var j = i
                    while j < chars.count, chars[j].isLetter || chars[j] == "-" || chars[j] == "_" { j += 1 }
                    tokens.append(Token(kind: .word, text: String(chars[i..<j]), column: column))
                    i = j
                } else {
                    throw WorkoutSpecError(.unexpectedCharacter(c), column: column)
                }
            }
        }
        return tokens
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
