/// A parsed JSON value that remembers where it started, so a plan file's mistakes can be
/// reported by line and column. A small parser of its own keeps the core free of Foundation.
public indirect enum JSONValue: Sendable, Equatable {
    case object([(key: String, value: JSONValue)], at: JSONPosition)
    case array([JSONValue], at: JSONPosition)
    case string(String, at: JSONPosition)
    case number(Double, at: JSONPosition)
    case bool(Bool, at: JSONPosition)
    case null(at: JSONPosition)

    /// Where the value starts in its text.
    public var position: JSONPosition {
        switch self {
        case .object(_, let at), .array(_, let at), .string(_, let at), .number(_, let at), .bool(_, let at), .null(let at):
            return at
        }
    }

    /// The member `key` of an object (nil for other values or a missing key).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members, _) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// What kind of value this is, for error messages.
    public var kindName: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "true or false"
        case .null: return "null"
        }
    }

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x, p), .object(y, q)):
            return p == q && x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(x, p), .array(y, q)): return x == y && p == q
        case let (.string(x, p), .string(y, q)): return x == y && p == q
        case let (.number(x, p), .number(y, q)): return x == y && p == q
        case let (.bool(x, p), .bool(y, q)): return x == y && p == q
        case let (.null(p), .null(q)): return p == q
        default: return false
        }
    }

    /// Parses a whole JSON text (RFC 8259); the first mistake is thrown with its line and column.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(Array(text.unicodeScalars))
        parser.skipBlanks()
        let value = try parser.value(depth: 0)
        parser.skipBlanks()
        if parser.index < parser.scalars.count { throw parser.error("unexpected text after the JSON value") }
        return value
    }
}

/// A 1-based line and column (counted in Unicode scalars).
public struct JSONPosition: Sendable, Equatable, Hashable {
    /// 1-based line.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// Text that is not JSON, and where.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the text stops being JSON.
    public var position: JSONPosition
    /// What was expected there.
    public var message: String
    public var description: String { "line \(position.line), column \(position.column): \(message)" }
}

private struct JSONParser {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var lineStart = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var position: JSONPosition { JSONPosition(line: line, column: index - lineStart + 1) }

    func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(position: position, message: message) }

    mutating func skipBlanks() {
        while index < scalars.count {
            switch scalars[index] {
            case "\n": index += 1; line += 1; lineStart = index
            case " ", "\t", "\r": index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        // Deep nesting is not a plan; refusing it keeps the recursion bounded.
        guard depth < 64 else { throw error("nested too deeply") }
        guard index < scalars.count else { throw error("unexpected end of the file: expected a value") }
        let at = position
        switch scalars[index] {
        case "{": return try object(at: at, depth: depth)
        case "[": return try array(at: at, depth: depth)
        case "\"": return .string(try string(), at: at)
        case "t": try literal("true"); return .bool(true, at: at)
        case "f": try literal("false"); return .bool(false, at: at)
        case "n": try literal("null"); return .null(at: at)
        case "-", "0"..."9": return .number(try number(), at: at)
        default: throw error("unexpected \"\(scalars[index])\": expected a value")
        }
    }

    mutating func object(at: JSONPosition, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipBlanks()
        if index < scalars.count, scalars[index] == "}" { index += 1; return .object(members, at: at) }
        while true {
            skipBlanks()
            guard index < scalars.count, scalars[index] == "\"" else { throw error("expected a member name in double quotes") }
            let keyPosition = position
            let key = try string()
            if members.contains(where: { $0.key == key }) {
                throw JSONSyntaxError(position: keyPosition, message: "\"\(key)\" appears twice in this object")
            }
            skipBlanks()
            guard index < scalars.count, scalars[index] == ":" else { throw error("expected \":\" after \"\(key)\"") }
            index += 1
            skipBlanks()
            members.append((key, try value(depth: depth + 1)))
            skipBlanks()
            guard index < scalars.count else { throw error("unexpected end of the file: expected \",\" or \"}\"") }
            if scalars[index] == "," { index += 1; continue }
            if scalars[index] == "}" { index += 1; return .object(members, at: at) }
            throw error("expected \",\" or \"}\"")
        }
    }

    mutating func array(at: JSONPosition, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipBlanks()
        if index < scalars.count, scalars[index] == "]" { index += 1; return .array(items, at: at) }
        while true {
            skipBlanks()
            items.append(try value(depth: depth + 1))
            skipBlanks()
            guard index < scalars.count else { throw error("unexpected end of the file: expected \",\" or \"]\"") }
            if scalars[index] == "," { index += 1; continue }
            if scalars[index] == "]" { index += 1; return .array(items, at: at) }
            throw error("expected \",\" or \"]\"")
        }
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var out = String.UnicodeScalarView()
        while index < scalars.count {
            let c = scalars[index]
            switch c {
            case "\"": index += 1; return String(out)
            case "\\":
                index += 1
                guard index < scalars.count else { break }
                let e = scalars[index]
                index += 1
                switch e {
                case "\"", "\\", "/": out.append(e)
                case "b": out.append("\u{8}")
                case "f": out.append("\u{C}")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "u":
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), index + 1 < scalars.count, scalars[index] == "\\", scalars[index + 1] == "u" {
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("bad surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("bad \\u escape") }
                    out.append(scalar)
                default:
                    index -= 1
                    throw error("unknown escape \"\\\(e)\"")
                }
            default:
                guard c.value >= 0x20 else { throw error("a control character inside a string (write \\n or \\t)") }
                out.append(c)
                index += 1
            }
        }
        throw error("unexpected end of the file inside a string")
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= scalars.count else { throw error("bad \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = UInt32(String(scalars[index]), radix: 16) else { throw error("bad \\u escape") }
            code = code * 16 + digit
            index += 1
        }
        return code
    }

    mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        if scalars[index] == "-" { index += 1 }
        func digits() -> Int {
            let from = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            return index - from
        }
        guard digits() > 0 else { throw error("bad number") }
        if index < scalars.count, scalars[index] == "." {
            index += 1
            guard digits() > 0 else { throw error("bad number: digits expected after \".\"") }
        }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
            guard digits() > 0 else { throw error("bad number: digits expected in the exponent") }
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<index])
        guard let value = Double(text) else { throw JSONSyntaxError(position: position, message: "bad number \(text)") }
        return value
    }

    mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for expected in word.unicodeScalars {
            guard index < scalars.count, scalars[index] == expected else { throw error("expected \(word)") }
            index += 1
        }
    }
}

extension JSONValue {
    /// JSON text for a string: quoted and escaped.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
