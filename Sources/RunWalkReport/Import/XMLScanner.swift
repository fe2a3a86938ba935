import RunWalkCore

/// A small, forgiving XML tokenizer: enough for GPX (elements, attributes, text, entities,
/// comments, CDATA, processing instructions and a DOCTYPE), with 1-based line numbers for errors.
struct XMLScanner {
    enum Token: Equatable {
        /// An opening tag (also for `<x/>`, followed by its `.end`); the name without its namespace prefix.
        case start(name: String, attributes: [String: String], line: Int)
        case end(name: String, line: Int)
        case text(String)
    }

    /// Why the document could not be read.
    struct Failure: Error, Equatable {
        var line: Int
        var message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private(set) var line = 1

    init(_ text: String) { bytes = Array(text.utf8) }

    /// All tokens of the document, in order.
    mutating func tokens() throws(Failure) -> [Token] {
        var tokens: [Token] = []
        var text: [UInt8] = []
        func flushText() {
            if !text.isEmpty { tokens.append(.text(Self.decodeEntities(String(decoding: text, as: UTF8.self)))); text = [] }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte != 60 {  // '<'
                if byte == 10 { line += 1 }
                text.append(byte)
                index += 1
                continue
            }
            flushText()
            if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                index += 9
                let begin = index
                try skip(past: "]]>")
                tokens.append(.text(String(decoding: bytes[begin..<(index - 3)], as: UTF8.self)))
            } else if starts(with: "<?") || starts(with: "<!") {
                try skip(past: ">")
            } else if starts(with: "</") {
                let at = line
                index += 2
                let name = readName()
                skipSpace()
                guard index < bytes.count, bytes[index] == 62 else { throw Failure(line: line, message: "malformed closing tag </\(UserText.printable(name))") }
                index += 1
                tokens.append(.end(name: Self.localName(name), line: at))
            } else {
                let at = line
                index += 1
                let name = readName()
                guard !name.isEmpty else { throw Failure(line: line, message: "\"<\" that starts no tag") }
                var attributes: [String: String] = [:]
                while true {
                    skipSpace()
                    guard index < bytes.count else { throw Failure(line: at, message: "unterminated tag <\(UserText.printable(name))") }
                    if bytes[index] == 62 { index += 1; tokens.append(.start(name: Self.localName(name), attributes: attributes, line: at)); break }
                    if bytes[index] == 47, index + 1 < bytes.count, bytes[index + 1] == 62 {
                        index += 2
                        tokens.append(.start(name: Self.localName(name), attributes: attributes, line: at))
                        tokens.append(.end(name: Self.localName(name), line: at))
                        break
                    }
                    let key = readName()
                    skipSpace()
                    guard !key.isEmpty, index < bytes.count, bytes[index] == 61 else {
                        throw Failure(line: line, message: "malformed attribute in <\(UserText.printable(name))>")
                    }
                    index += 1
                    skipSpace()
                    guard index < bytes.count, bytes[index] == 34 || bytes[index] == 39 else {
                        throw Failure(line: line, message: "attribute \(UserText.printable(key)) of <\(UserText.printable(name))> has no quoted value")
                    }
                    let quote = bytes[index]
                    index += 1
                    let begin = index
                    while index < bytes.count, bytes[index] != quote {
                        if bytes[index] == 10 { line += 1 }
                        index += 1
                    }
                    guard index < bytes.count else { throw Failure(line: at, message: "unterminated attribute \(UserText.printable(key)) of <\(UserText.printable(name))>") }
                    attributes[Self.localName(key)] = Self.decodeEntities(String(decoding: bytes[begin..<index], as: UTF8.self))
                    index += 1
                }
            }
        }
        flushText()
        return tokens
    }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { p in
            for k in 0..<count where bytes[index + k] != p[k] { return false }
            return true
        }
    }

    private mutating func skip(past terminator: StaticString) throws(Failure) {
        let start = line
        while index < bytes.count {
            if starts(with: terminator) { index += terminator.utf8CodeUnitCount; return }
            if bytes[index] == 10 { line += 1 }
            index += 1
        }
        throw Failure(line: start, message: "unterminated markup (expected \"\(terminator)\")")
    }

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 || bytes[index] == 10 || bytes[index] == 13 {
            if bytes[index] == 10 { line += 1 }
            index += 1
        }
    }

    private mutating func readName() -> String {
        let begin = index
        while index < bytes.count {
            let b = bytes[index]
            if b == 32 || b == 9 || b == 10 || b == 13 || b == 47 || b == 62 || b == 61 || b == 60 { break }
            index += 1
        }
        return String(decoding: bytes[begin..<index], as: UTF8.self)
    }

    /// `gpx:trkpt` → `trkpt`.
    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// Replaces the five predefined entities and numeric character references.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                var scalar: Unicode.Scalar?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
                }
                if let scalar { out.unicodeScalars.append(scalar) } else { out += "&" + entity + ";" }
            }
            rest = rest[rest.index(after: semi)...]
        }
        out += rest
        return out
    }
}
