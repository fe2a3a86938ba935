#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into lines, whatever the read sizes: CR LF, LF or lone CR end a line.
///
/// Lines that lie wholly inside a chunk are handed out in place, without copying; only a line
/// split across chunks is gathered in a buffer. A line longer than `maximumLineLength` is
/// handed out from its last `$` or `!` (a sentence behind binary data, e.g. a u-blox UBX
/// stream with NMEA between its packets, is found as gpsd finds it); the bytes before are
/// counted in `junkBytes`. Only when that part alone is too long is the line cut and flagged,
/// so a stream without line breaks cannot grow memory without bound.
public struct NMEALineFramer: Sendable {
    /// Lines are cut (and flagged) at this many bytes.
    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var lastWasCR = false
    /// The line being gathered is longer than the maximum: `pending` holds it from its last
    /// start character (empty while none was seen).
    private var overlong = false
    /// The part from the last start character is itself longer than the maximum.
    private var truncated = false
    /// Bytes dropped before the start character of overlong lines.
    public private(set) var junkBytes = 0

    /// A framer that cuts lines at `maximumLineLength` bytes (real logs hold sentences far
    /// beyond NMEA's 82 characters, so the default is generous).
    public init(maximumLineLength: Int = 4096) {
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// A framed line: its bytes without the terminator, and whether it was cut short.
    public struct Line: Sendable, Equatable {
        /// The line's bytes, terminator excluded.
        public var bytes: [UInt8]
        /// The line was longer than `maximumLineLength` and was cut there.
        public var truncated: Bool
    }

    /// Feeds a chunk; calls `emit` with each line it completes (bytes valid only during the call)
    /// and whether that line was cut at `maximumLineLength`.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>,
                              _ emit: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        guard let base = chunk.baseAddress else { return }
        let n = chunk.count
        var i = 0
        if lastWasCR, n > 0 {
            if base[0] == 0x0A { i = 1 }
            lastWasCR = false
        }
        var lineStart = i
        while i < n {
            // memchr is vectorised: find the next LF, then any CR before it (usually just
            // the one of a CR LF pair).
            let lf = Self.find(0x0A, base, from: i, to: n)
            let cr = Self.find(0x0D, base, from: i, to: lf ?? n)
            guard let end = cr ?? lf else { break }
            try complete(UnsafeBufferPointer(start: base + lineStart, count: end - lineStart), emit)
            i = end + 1
            if base[end] == 0x0D {
                if i < n {
                    if base[i] == 0x0A { i += 1 }
                } else {
                    lastWasCR = true
                }
            }
            lineStart = i
        }
        if lineStart < n { append(UnsafeBufferPointer(start: base + lineStart, count: n - lineStart)) }
    }

    @inline(__always)
    private static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// Feeds a chunk of any byte collection (copies it; for tests and small inputs).
    public mutating func feed<C: Collection>(_ chunk: C, _ emit: (Line) -> Void) where C.Element == UInt8 {
        let bytes = Array(chunk)
        bytes.withUnsafeBufferPointer { buffer in
            feed(buffer) { line, truncated in emit(Line(bytes: Array(line), truncated: truncated)) }
        }
    }

    /// Emits what is left at the end of the stream.
    public mutating func finish(_ emit: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        if !pending.isEmpty || overlong {
            try emitPending(emit)
        }
    }

    /// Emits what is left at the end of the stream (copying; for tests).
    public mutating func finish(_ emit: (Line) -> Void) {
        finish { line, truncated in emit(Line(bytes: Array(line), truncated: truncated)) }
    }

    @inline(__always)
    private static func lastStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = bytes.count
        while i > 0 {
            i -= 1
            if bytes[i] == 0x24 || bytes[i] == 0x21 { return i }
        }
        return nil
    }

    /// Adds bytes to the line being gathered; past the maximum, keeps the line from its last
    /// start character only.
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if !overlong, pending.count + bytes.count <= maximumLineLength {
            pending.append(contentsOf: bytes)
            return
        }
        if !overlong {
            overlong = true
            if bytes.contains(where: { $0 == 0x24 || $0 == 0x21 }) {
                junkBytes += pending.count
                pending.removeAll(keepingCapacity: true)
            } else if let start = pending.withUnsafeBufferPointer({ Self.lastStart($0) }) {
                junkBytes += start
                pending.removeFirst(start)
            } else {
                junkBytes += pending.count
                pending.removeAll(keepingCapacity: true)
                truncated = true // no start character yet: the line is junk unless one comes
            }
        }
        var bytes = bytes
        if let start = Self.lastStart(bytes) {
            junkBytes += pending.count + start
            pending.removeAll(keepingCapacity: true)
            bytes = UnsafeBufferPointer(rebasing: bytes[start...])
            truncated = false
        } else if pending.isEmpty {
            junkBytes += bytes.count
            return
        }
        guard !truncated else { return }
        let room = maximumLineLength - pending.count
        if bytes.count > room {
            truncated = true
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<room]))
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func emitPending(_ emit: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        let cut = overlong && (truncated || pending.isEmpty)
        try pending.withUnsafeBufferPointer { try emit($0, cut) }
        pending.removeAll(keepingCapacity: true)
        overlong = false
        truncated = false
    }

    private mutating func complete(_ tail: UnsafeBufferPointer<UInt8>,
                                   _ emit: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        if pending.isEmpty && !overlong {
            if tail.count <= maximumLineLength {
                try emit(tail, false)
                return
            }
            // Too long: the sentence, if any, starts at the last start character.
            guard let start = Self.lastStart(tail) else {
                junkBytes += tail.count
                try emit(UnsafeBufferPointer(rebasing: tail[0..<0]), true)
                return
            }
            junkBytes += start
            let sentence = UnsafeBufferPointer(rebasing: tail[start...])
            if sentence.count <= maximumLineLength {
                try emit(sentence, false)
            } else {
                try emit(UnsafeBufferPointer(rebasing: sentence[0..<maximumLineLength]), true)
            }
            return
        }
        append(tail)
        try emitPending(emit)
    }
}
