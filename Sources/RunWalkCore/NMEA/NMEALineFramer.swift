#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into lines, whatever the read sizes: CR LF, LF or lone CR end a line.
///
/// Lines that lie wholly inside a chunk are handed out in place, without copying; only a line
/// split across chunks is gathered in a buffer. Lines longer than `maximumLineLength` are cut
/// there and flagged, so a stream without line breaks cannot grow memory without bound.
public struct NMEALineFramer: Sendable {
    /// Lines are cut (and flagged) at this many bytes.
    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var lastWasCR = false
    private var overlong = false

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
            let truncated = overlong
            try pending.withUnsafeBufferPointer { try emit($0, truncated) }
            pending.removeAll(keepingCapacity: true)
            overlong = false
        }
    }

    /// Emits what is left at the end of the stream (copying; for tests).
    public mutating func finish(_ emit: (Line) -> Void) {
        finish { line, truncated in emit(Line(bytes: Array(line), truncated: truncated)) }
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let room = maximumLineLength - pending.count
        if bytes.count > room {
            overlong = true
            if room > 0 { pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<room])) }
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func complete(_ tail: UnsafeBufferPointer<UInt8>,
                                   _ emit: (UnsafeBufferPointer<UInt8>, Bool) throws -> Void) rethrows {
        if pending.isEmpty && !overlong {
            if tail.count <= maximumLineLength {
                try emit(tail, false)
            } else {
                try emit(UnsafeBufferPointer(rebasing: tail[0..<maximumLineLength]), true)
            }
            return
        }
        append(tail)
        let truncated = overlong
        try pending.withUnsafeBufferPointer { try emit($0, truncated) }
        pending.removeAll(keepingCapacity: true)
        overlong = false
    }
}
