/// A streaming XML tokenizer for track files: holds only the markup being read and the
/// chunk around it, so a GPX of any size is read in constant memory. Enough XML for GPX
/// and TCX: elements, attributes, text, entities, comments, CDATA, processing instructions
/// and a DOCTYPE without an internal subset.
///
/// Every token is capped (`tokenLimit`: a text node, however many pieces comments and CDATA
/// cut it into, a tag with its attributes, a comment), and so is the nesting depth: a hostile
/// file fails with one line instead of growing memory with one token.
struct XMLStream {
    /// The longest text, tag or comment read (a name or a time is never more than a few KB).
    static let tokenLimit = 1 << 20
    /// The deepest nesting read (GPX and TCX need fewer than ten levels).
    static let depthLimit = 1000

    /// One piece of the document.
    enum Event {
        /// An opening tag; the name and attribute names without their namespace prefix.
        case start(name: String, attributes: [(String, String)], line: Int)
        /// A closing tag (also sent right after the start of `<x/>`).
        case end(name: String, line: Int)
        /// Character data (entities decoded), possibly in several pieces.
        case text(String)
    }

    /// Where the document broke, and how.
    struct Failure: Error {
        var line: Int
        var message: String
    }

    private let input: TrackInput
    private var buffer: [UInt8]
    private var position = 0
    private var end = 0
    private var atEOF = false
    private var pendingEnd: (String, Int)?
    /// Bytes of character data since the last tag (text pieces between comments add up).
    private var textSinceTag = 0
    private var depth = 0
    /// Line of the byte at `position`, 1-based.
    private(set) var line = 1

    /// A tokenizer over `input`, starting with bytes already read from it.
    init(input: TrackInput, head: [UInt8]) {
        self.input = input
        buffer = head
        end = head.count
        if buffer.count < (1 << 16) { buffer += [UInt8](repeating: 0, count: (1 << 16) - buffer.count) }
    }

    /// The next event, nil at the end of the document.
    mutating func next() throws -> Event? {
        if let (name, at) = pendingEnd {
            pendingEnd = nil
            depth -= 1
            return .end(name: name, line: at)
        }
        while true {
            if position == end, try !fill() { return nil }
            if buffer[position] != 60 {
                if let text = try readText() { return text }
                continue
            }
            if let event = try readMarkup() {
                switch event {
                case .start(_, _, let at):
                    textSinceTag = 0
                    depth += 1
                    if depth > Self.depthLimit { throw Failure(line: at, message: "elements nested deeper than \(Self.depthLimit)") }
                case .end:
                    textSinceTag = 0
                    depth -= 1
                case .text(let text):
                    try countText(text.utf8.count, line: line)
                }
                return event
            }
        }
    }

    /// Counts character data since the last tag against the cap.
    private mutating func countText(_ count: Int, line at: Int) throws {
        textSinceTag += count
        if textSinceTag > Self.tokenLimit { throw Failure(line: at, message: "text longer than \(Self.tokenLimit >> 20) MB") }
    }

    /// Reads more bytes after `end`, keeping from `position` on; false at the end of the input.
    private mutating func fill() throws -> Bool {
        if atEOF { return false }
        if position > 0 {
            let kept = end - position
            if kept > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    (base).copyMemory(from: base + position, byteCount: kept)
                }
            }
            end = kept
            position = 0
        }
        if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        let n = try buffer.withUnsafeMutableBytes { raw in
            try input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[end...]))
        }
        if n == 0 { atEOF = true; return false }
        end += n
        return true
    }

    /// Character data up to the next markup; nil when it is only white space (the indentation
    /// between elements, which neither GPX nor TCX gives meaning: no string is made for it).
    private mutating func readText() throws -> Event? {
        var out: [UInt8] = []
        var blank = true
        let at = line
        while true {
            var i = position
            while i < end, buffer[i] != 60 {
                let b = buffer[i]
                if b == 10 { line += 1 } else if blank, b != 32, b != 9, b != 13 { blank = false }
                i += 1
            }
            if !blank {
                out.append(contentsOf: buffer[position..<i])
                try countText(i - position, line: at)
            }
            position = i
            if i < end { break }
            if try !fill() { break }
        }
        return blank ? nil : .text(Self.decodeEntities(out))
    }

    /// Index of the first byte after `terminator` at or after `from`, reading more as needed; nil at the end of the input.
    /// Markup longer than `tokenLimit` fails as `what` at the line where it starts.
    private mutating func find(_ terminator: [UInt8], from offset: Int, quoted: Bool = false, what: String) throws -> Int? {
        var i = position + offset
        var quote: UInt8 = 0
        while true {
            while i < end {
                let b = buffer[i]
                if quoted, quote != 0 {
                    if b == quote { quote = 0 }
                } else if quoted, b == 34 || b == 39 {
                    quote = b
                } else if b == terminator[0], i + terminator.count <= end,
                          terminator.indices.allSatisfy({ buffer[i + $0] == terminator[$0] }) {
                    if i - position > Self.tokenLimit { throw Failure(line: line, message: "\(what) longer than \(Self.tokenLimit >> 20) MB") }
                    return i + terminator.count
                } else if b == terminator[0], i + terminator.count > end {
                    break  // the terminator may straddle the chunk's end
                }
                i += 1
            }
            let done = i - position
            if done > Self.tokenLimit { throw Failure(line: line, message: "\(what) longer than \(Self.tokenLimit >> 20) MB") }
            guard try fill() else { return nil }
            i = position + done
        }
    }

    private func starts(with prefix: [UInt8]) -> Bool {
        position + prefix.count <= end && prefix.indices.allSatisfy { buffer[position + $0] == prefix[$0] }
    }

    /// Makes sure `count` bytes from `position` are in the buffer when the input has them.
    private mutating func ensure(_ count: Int) throws {
        while end - position < count, try fill() {}
    }

    private mutating func consume(to stop: Int) {
        for i in position..<stop where buffer[i] == 10 { line += 1 }
        position = stop
    }

    private static let commentOpen = Array("<!--".utf8), commentClose = Array("-->".utf8)
    private static let cdataOpen = Array("<![CDATA[".utf8), cdataClose = Array("]]>".utf8)
    private static let piClose = Array("?>".utf8), close = Array(">".utf8)

    private mutating func readMarkup() throws -> Event? {
        let at = line
        try ensure(9)
        if starts(with: Self.commentOpen) {
            guard let stop = try find(Self.commentClose, from: 4, what: "comment") else { throw Failure(line: at, message: "unterminated comment <!--") }
            consume(to: stop)
            return nil
        }
        if starts(with: Self.cdataOpen) {
            guard let stop = try find(Self.cdataClose, from: 9, what: "text") else { throw Failure(line: at, message: "unterminated <![CDATA[") }
            let text = String(decoding: buffer[(position + 9)..<(stop - 3)], as: UTF8.self)
            consume(to: stop)
            return .text(text)
        }
        if end - position >= 2, buffer[position + 1] == 63 || buffer[position + 1] == 33 {  // <? or <!
            let terminator = buffer[position + 1] == 63 ? Self.piClose : Self.close
            guard let stop = try find(terminator, from: 2, what: "markup") else { throw Failure(line: at, message: "unterminated markup <\(buffer[position + 1] == 63 ? "?" : "!")") }
            consume(to: stop)
            return nil
        }
        guard let stop = try find(Self.close, from: 1, quoted: true, what: "tag") else {
            throw Failure(line: at, message: "the file ends inside a tag")
        }
        // A slice, not a copy: the buffer is not changed until the next read.
        let tag = buffer[(position + 1)..<(stop - 1)]
        consume(to: stop)
        return try parseTag(tag, line: at)
    }

    private mutating func parseTag(_ tag: ArraySlice<UInt8>, line at: Int) throws -> Event {
        var i = tag.startIndex
        let end = tag.endIndex
        func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }
        func name() -> String {
            let begin = i
            while i < end, !isSpace(tag[i]), tag[i] != 47, tag[i] != 61 { i += 1 }
            return Self.localName(tag[begin..<i])
        }
        if tag.first == 47 {  // '/'
            i = tag.startIndex + 1
            let element = name()
            guard !element.isEmpty else { throw Failure(line: at, message: "empty closing tag </>") }
            return .end(name: element, line: at)
        }
        let element = name()
        guard !element.isEmpty else { throw Failure(line: at, message: "a '<' that starts no tag") }
        var attributes: [(String, String)] = []
        while true {
            while i < end, isSpace(tag[i]) { i += 1 }
            if i == end { break }
            if tag[i] == 47 {
                guard i == end - 1 else { throw Failure(line: at, message: "stray '/' in <\(element)>") }
                pendingEnd = (element, at)
                break
            }
            let key = name()
            while i < end, isSpace(tag[i]) { i += 1 }
            guard !key.isEmpty, i < end, tag[i] == 61 else { throw Failure(line: at, message: "malformed attribute in <\(element)>") }
            i += 1
            while i < end, isSpace(tag[i]) { i += 1 }
            guard i < end, tag[i] == 34 || tag[i] == 39 else {
                throw Failure(line: at, message: "attribute \(key) of <\(element)> has no quoted value")
            }
            let quote = tag[i]
            i += 1
            let begin = i
            while i < end, tag[i] != quote { i += 1 }
            guard i < end else { throw Failure(line: at, message: "unterminated attribute \(key) of <\(element)>") }
            attributes.append((key, Self.decodeEntities(tag[begin..<i])))
            i += 1
        }
        return .start(name: element, attributes: attributes, line: at)
    }

    /// `gpx:trkpt` → `trkpt`.
    static func localName(_ bytes: ArraySlice<UInt8>) -> String {
        let tail = bytes.lastIndex(of: 58).map { bytes[($0 + 1)...] } ?? bytes
        return String(decoding: tail, as: UTF8.self)
    }

    /// The text with the five predefined entities and numeric character references replaced.
    static func decodeEntities<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8, Bytes.Index == Int {
        guard bytes.contains(38) else { return String(decoding: bytes, as: UTF8.self) }
        var out = ""
        var i = bytes.startIndex, runStart = bytes.startIndex
        while i < bytes.endIndex {
            guard bytes[i] == 38, let semi = bytes[i...].prefix(12).firstIndex(of: 59) else { i += 1; continue }
            out += String(decoding: bytes[runStart..<i], as: UTF8.self)
            let entity = String(decoding: bytes[(i + 1)..<semi], as: UTF8.self)
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
            i = semi + 1
            runStart = i
        }
        out += String(decoding: bytes[runStart..<bytes.endIndex], as: UTF8.self)
        return out
    }
}
