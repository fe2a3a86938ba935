/// One NMEA 0183 sentence split into its parts, checksum checked.
///
/// This is the convenient, allocating view for tools and tests; the decoder itself works on
/// `NMEAFields`, which points into the line's bytes and allocates nothing.
public struct NMEASentence: Sendable, Equatable {
    /// `GP`, `GN`, … (empty for proprietary sentences).
    public var talker: String
    /// `GGA`, `RMC`, … (for proprietary sentences the whole address after `P`).
    public var type: String
    /// The fields after the address, without the checksum.
    public var fields: [Substring]
    /// The sentence carried a checksum (which matched).
    public var hasChecksum: Bool

    /// Why a line is not a usable sentence, or why a sentence was skipped.
    public enum Problem: String, Error, Sendable, Hashable, CaseIterable {
        case notASentence = "not an NMEA sentence (junk)"
        case badChecksum = "checksum mismatch"
        case malformedChecksum = "malformed checksum"
        case tooLong = "line too long"
        case nonASCII = "non-ASCII or control bytes"
        case truncatedField = "truncated or malformed field"
        case collision = "sentence cut short by another (packet collision)"
        case proprietary = "proprietary sentence (skipped)"
        case ais = "AIS sentence (skipped)"
        case unsupported = "unsupported sentence type (skipped)"

        /// Whether the line is counted as bad (`fixes.lines_bad`) rather than skipped on purpose.
        public var isBad: Bool {
            switch self {
            case .proprietary, .ais, .unsupported: return false
            default: return true
            }
        }

        /// A dense index for counting without hashing.
        var index: Int {
            switch self {
            case .notASentence: return 0
            case .badChecksum: return 1
            case .malformedChecksum: return 2
            case .tooLong: return 3
            case .nonASCII: return 4
            case .truncatedField: return 5
            case .collision: return 6
            case .proprietary: return 7
            case .ais: return 8
            case .unsupported: return 9
            }
        }
    }

    /// Parses one line (without its terminator).
    public static func parse(_ line: String) -> Result<NMEASentence, Problem> {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            NMEAFields.withFields(of: buffer) { scan -> Result<NMEASentence, Problem> in
                switch scan {
                case .failure(let problem): return .failure(problem)
                case .success(let fields):
                    let address = String(decoding: fields[0], as: UTF8.self)
                    var parts: [Substring] = []
                    for i in 1..<max(1, fields.count) {
                        parts.append(Substring(String(decoding: fields[i], as: UTF8.self)))
                    }
                    let proprietary = address.first == "P"
                    return .success(NMEASentence(
                        talker: proprietary ? "" : String(address.prefix(2)),
                        type: proprietary ? address : String(address.dropFirst(2)),
                        fields: parts, hasChecksum: fields.hasChecksum))
                }
            }
        }
    }

    /// Field `i` (0-based, after the address), empty when absent.
    public subscript(_ i: Int) -> Substring { i < fields.count ? fields[i] : "" }
}

/// The fields of one sentence as byte ranges into its line: no copies, no allocation.
///
/// Field 0 is the address (`GPGGA`), fields 1… the data, as gpsd numbers them.
public struct NMEAFields {
    /// The most fields kept; further ones are ignored (no sentence we decode has this many).
    public static let capacity = 80
    let base: UnsafePointer<UInt8>
    /// `bounds[i]` is where field i starts; field i ends one before `bounds[i + 1]`.
    let bounds: UnsafeMutablePointer<Int32>
    /// Number of fields, the address included.
    public let count: Int
    /// The sentence began with `!` (AIS and other encapsulated data).
    public let encapsulated: Bool
    /// The sentence carried a checksum (which matched).
    public let hasChecksum: Bool
    /// Bytes before the start character that were dropped (noise, or the head of a collision).
    public let junkBefore: Range<Int>?

    /// Field `i`'s bytes; empty when the sentence has fewer fields.
    @inline(__always)
    public subscript(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        guard i < count else { return UnsafeBufferPointer(start: base, count: 0) }
        let start = Int(bounds[i])
        return UnsafeBufferPointer(start: base + start, count: Int(bounds[i + 1]) - 1 - start)
    }

    /// Whether field `i` is empty or absent.
    @inline(__always)
    public func isEmpty(_ i: Int) -> Bool { i >= count || bounds[i + 1] - 1 == bounds[i] }

    /// The first byte of field `i`, or 0 when it is empty.
    @inline(__always)
    public func first(_ i: Int) -> UInt8 { isEmpty(i) ? 0 : base[Int(bounds[i])] }

    /// Locates the sentence in `line`, verifies its checksum and splits its fields, then calls
    /// `body` with the result. Nothing escapes `body`.
    ///
    /// Like gpsd's packet layer, a `$` or `!` inside a line starts the sentence over (the
    /// bytes before it are junk, e.g. a sentence cut by another); a missing checksum is
    /// accepted; bytes outside printable ASCII make the line bad.
    @inline(__always)
    public static func withFields<R>(of line: UnsafeBufferPointer<UInt8>,
                                     _ body: (Result<NMEAFields, NMEASentence.Problem>) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity + 1) { bounds in
            guard let pointer = bounds.baseAddress else { return try body(.failure(.notASentence)) }
            return try body(scan(line, into: pointer))
        }
    }

    private static func scan(_ line: UnsafeBufferPointer<UInt8>, into bounds: UnsafeMutablePointer<Int32>)
        -> Result<NMEAFields, NMEASentence.Problem> {
        guard let base = line.baseAddress, !line.isEmpty else { return .failure(.notASentence) }
        let n = line.count
        var start = -1
        var sum: UInt8 = 0
        var count = 0
        var star = -1
        var controlBytes = false
        var i = 0
        while i < n {
            let c = base[i]
            if c == 0x24 || c == 0x21 { // '$' or '!': (re)start
                start = i
                sum = 0
                bounds[0] = Int32(i + 1)
                count = 1
                star = -1
                controlBytes = false
            } else if start >= 0, star < 0 {
                if c == 0x2A { // '*'
                    star = i
                } else {
                    sum ^= c
                    if c == 0x2C { // ','
                        if count < capacity {
                            bounds[count] = Int32(i + 1)
                            count += 1
                        }
                    } else if c < 0x20 || c >= 0x7F {
                        controlBytes = true
                    }
                }
            }
            i += 1
        }
        guard start >= 0 else {
            for j in 0..<n where base[j] >= 0x80 || (base[j] < 0x20 && base[j] != 0x09) {
                return .failure(.nonASCII)
            }
            return .failure(.notASentence)
        }
        if controlBytes { return .failure(.nonASCII) }
        let bodyEnd: Int
        var hasChecksum = false
        if star >= 0 {
            bodyEnd = star
            // Two hex digits, then only trailing blanks.
            var j = star + 1
            var value = 0
            var digits = 0
            while j < n, digits < 2, let v = hexValue(base[j]) {
                value = value << 4 | v
                digits += 1
                j += 1
            }
            while j < n, base[j] == 0x20 || base[j] == 0x09 { j += 1 }
            guard digits == 2, j == n else { return .failure(.malformedChecksum) }
            guard UInt8(value) == sum else { return .failure(.badChecksum) }
            hasChecksum = true
        } else {
            var end = n
            while end > start + 1, base[end - 1] == 0x20 || base[end - 1] == 0x09 { end -= 1 }
            bodyEnd = end
        }
        bounds[count] = Int32(bodyEnd + 1)
        // The address: at least three upper-case letters or digits.
        let addressStart = start + 1
        let addressEnd = count > 1 ? Int(bounds[1]) - 1 : bodyEnd
        guard addressEnd - addressStart >= 3 else { return .failure(.notASentence) }
        for j in addressStart..<addressEnd {
            let c = base[j]
            guard (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) else { return .failure(.notASentence) }
        }
        return .success(NMEAFields(base: base, bounds: bounds, count: count, encapsulated: base[start] == 0x21,
                                   hasChecksum: hasChecksum, junkBefore: start > 0 ? 0..<start : nil))
    }

    @inline(__always)
    private static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x41...0x46: return Int(c - 0x41 + 10)
        case 0x61...0x66: return Int(c - 0x61 + 10)
        default: return nil
        }
    }
}
