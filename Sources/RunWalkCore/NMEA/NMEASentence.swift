/// One NMEA 0183 sentence split into its parts, checksum checked.
public struct NMEASentence: Sendable, Equatable {
    /// `GP`, `GN`, … (empty for proprietary sentences).
    public var talker: String
    /// `GGA`, `RMC`, … (for proprietary sentences the whole address after `P`).
    public var type: String
    /// The fields after the address, without the checksum.
    public var fields: [Substring]
    public var hasChecksum: Bool

    /// Why a line is not a usable sentence.
    public enum Problem: String, Error, Sendable, Hashable, CaseIterable {
        case notASentence = "not an NMEA sentence"
        case badChecksum = "checksum mismatch"
        case malformedChecksum = "malformed checksum"
        case tooLong = "line too long"
        case nonASCII = "non-ASCII bytes"
        case truncatedField = "truncated or malformed field"
        case proprietary = "proprietary sentence (skipped)"
        case unsupported = "unsupported sentence type (skipped)"
    }

    /// Parses one line (without its terminator).
    public static func parse(_ line: String) -> Result<NMEASentence, Problem> {
        var text = Substring(line)
        // Junk before the start character (e.g. a collision): resynchronise on the last '$' or '!'.
        guard let start = text.lastIndex(where: { $0 == "$" || $0 == "!" }) else { return .failure(.notASentence) }
        text = text[text.index(after: start)...]
        guard text.allSatisfy({ $0.isASCII }) else { return .failure(.nonASCII) }
        var body = text
        var hasChecksum = false
        if let star = text.lastIndex(of: "*") {
            body = text[..<star]
            let digits = text[text.index(after: star)...].trimmingSpaces
            guard digits.count == 2, let expected = UInt8(digits, radix: 16) else { return .failure(.malformedChecksum) }
            var sum: UInt8 = 0
            for byte in body.utf8 { sum ^= byte }
            guard sum == expected else { return .failure(.badChecksum) }
            hasChecksum = true
        }
        var parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard let address = parts.first, address.count >= 3 else { return .failure(.notASentence) }
        parts.removeFirst()
        guard address.allSatisfy({ $0.isLetter || $0.isNumber }) else { return .failure(.notASentence) }
        if address.first == "P" {
            return .success(NMEASentence(talker: "", type: String(address), fields: parts, hasChecksum: hasChecksum))
        }
        guard address.count == 5 else { return .failure(.notASentence) }
        return .success(NMEASentence(talker: String(address.prefix(2)), type: String(address.suffix(3)),
                                     fields: parts, hasChecksum: hasChecksum))
    }

    /// Field `i` (0-based, after the address), empty when absent.
    public subscript(_ i: Int) -> Substring { i < fields.count ? fields[i] : "" }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
