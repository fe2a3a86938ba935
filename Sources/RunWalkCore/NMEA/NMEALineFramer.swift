/// Splits a byte stream into lines, whatever the read sizes: CR LF, LF or lone CR end a line.
///
/// Lines longer than `maximumLineLength` are cut there and flagged, so a stream with no
/// line breaks cannot grow memory without bound.
public struct NMEALineFramer: Sendable {
    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var lastWasCR = false
    private var overlong = false

    public init(maximumLineLength: Int = 4096) {
        self.maximumLineLength = maximumLineLength
    }

    /// A framed line: its bytes without the terminator, and whether it was cut short.
    public struct Line: Sendable, Equatable {
        public var bytes: [UInt8]
        public var truncated: Bool
    }

    /// Feeds a chunk; calls `emit` for every line completed by it.
    public mutating func feed<C: Collection>(_ chunk: C, _ emit: (Line) -> Void) where C.Element == UInt8 {
        for byte in chunk {
            switch byte {
            case 0x0A:
                if lastWasCR { lastWasCR = false; continue }
                flush(emit)
            case 0x0D:
                flush(emit)
                lastWasCR = true
                continue
            default:
                if pending.count < maximumLineLength { pending.append(byte) } else { overlong = true }
            }
            lastWasCR = false
        }
    }

    /// Emits what is left at the end of the stream.
    public mutating func finish(_ emit: (Line) -> Void) {
        if !pending.isEmpty || overlong { flush(emit) }
    }

    private mutating func flush(_ emit: (Line) -> Void) {
        emit(Line(bytes: pending, truncated: overlong))
        pending.removeAll(keepingCapacity: true)
        overlong = false
    }
}
