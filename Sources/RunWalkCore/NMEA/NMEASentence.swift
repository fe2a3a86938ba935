#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        case late = "sentence for an epoch already reported (dropped)"

        /// Whether the line is counted as bad (`fixes.lines_bad`) rather than skipped on purpose.
        public var isBad: Bool {
            switch self {
            case .proprietary, .ais, .unsupported, .late: return false
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
            case .late: return 10
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
        // The sentence starts at the last '$' or '!': gpsd's packet layer starts over at each.
        let start = max(lastIndex(of: 0x24, base, n) ?? -1, lastIndex(of: 0x21, base, n) ?? -1)
        guard start >= 0 else {
            var seen: UInt8 = 0
            for j in 0..<n { seen |= base[j] >= 0x80 || (base[j] < 0x20 && base[j] != 0x09) ? 1 : 0 }
            return .failure(seen != 0 ? .nonASCII : .notASentence)
        }
        let star = firstIndex(of: 0x2A, base, from: start + 1, to: n)
        var bodyEnd = star ?? n
        if star == nil {
            while bodyEnd > start + 1, base[bodyEnd - 1] == 0x20 || base[bodyEnd - 1] == 0x09 { bodyEnd -= 1 }
        }
        // One branch-free pass for the checksum and for control bytes...
        var sum: UInt8 = 0
        var control: UInt8 = 0
        var j = start + 1
        while j < bodyEnd {
            let c = base[j]
            sum ^= c
            control |= (c &- 0x20) >= 0x5F ? 1 : 0
            j += 1
        }
        if control != 0 { return .failure(.nonASCII) }
        var hasChecksum = false
        if let star {
            // ...then two hex digits, and only blanks after them.
            var k = star + 1
            var value = 0
            var digits = 0
            while k < n, digits < 2, let v = hexValue(base[k]) {
                value = value << 4 | v
                digits += 1
                k += 1
            }
            while k < n, base[k] == 0x20 || base[k] == 0x09 { k += 1 }
            guard digits == 2, k == n else { return .failure(.malformedChecksum) }
            guard UInt8(value) == sum else { return .failure(.badChecksum) }
            hasChecksum = true
        }
        // ...and one for the field boundaries.
        bounds[0] = Int32(start + 1)
        var count = 1
        j = start + 1
        while j < bodyEnd {
            if base[j] == 0x2C, count < capacity {
                bounds[count] = Int32(truncatingIfNeeded: j + 1)
                count += 1
            }
            j += 1
        }
        bounds[count] = Int32(truncatingIfNeeded: bodyEnd + 1)
        // The address: at least three upper-case letters or digits.
        let addressStart = start + 1
        let addressEnd = count > 1 ? Int(bounds[1]) - 1 : bodyEnd
        guard addressEnd - addressStart >= 3 else { return .failure(.notASentence) }
        for k in addressStart..<addressEnd {
            let c = base[k]
            guard (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) else { return .failure(.notASentence) }
        }
        return .success(NMEAFields(base: base, bounds: bounds, count: count, encapsulated: base[start] == 0x21,
                                   hasChecksum: hasChecksum, junkBefore: start > 0 ? 0..<start : nil))
    }

    @inline(__always)
    private static func firstIndex(of byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    @inline(__always)
    private static func lastIndex(of byte: UInt8, _ base: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        var last: Int?
        var from = 0
        while let hit = firstIndex(of: byte, base, from: from, to: n) {
            last = hit
            from = hit + 1
        }
        return last
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
