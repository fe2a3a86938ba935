/// A FIT file's bytes read in order through a fixed buffer (memory does not grow with the
/// file, plain or gzip-compressed), counting the offset and the FIT CRC-16 of what was read.
final class FITByteStream {
    private let source: (UnsafeMutableRawBufferPointer) throws -> Int
    private var buffer: [UInt8]
    private var position = 0
    private var end: Int
    private var atEOF = false
    /// Bytes consumed from the start of the file.
    private(set) var offset = 0
    /// The CRC of the bytes consumed since `resetCRC`.
    private(set) var crc: UInt16 = 0

    /// A stream over `input`, starting with bytes already read from it.
    convenience init(input: TrackInput, head: [UInt8]) {
        self.init(head: head, source: { try input.read(into: $0) })
    }

    /// A stream of `head`, then of what `source` reads (0 at the end).
    init(head: [UInt8], source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int = { _ in 0 }) {
        self.source = source
        buffer = head
        end = head.count
        if buffer.count < 1 << 16 { buffer += [UInt8](repeating: 0, count: (1 << 16) - buffer.count) }
    }

    /// Starts a new CRC (each chained file has its own).
    func resetCRC() { crc = 0 }

    /// The next byte, nil at the end of the file.
    func byte() throws -> UInt8? {
        if position == end, try !fill() { return nil }
        let b = buffer[position]
        position += 1
        offset += 1
        crc = Self.crcStep(crc, b)
        return b
    }

    /// Reads up to `count` bytes into `out` (replacing its content); fewer only at the end of the file.
    func read(_ count: Int, into out: inout [UInt8]) throws {
        out.removeAll(keepingCapacity: true)
        while out.count < count {
            if position == end, try !fill() { return }
            let n = min(count - out.count, end - position)
            for b in buffer[position..<(position + n)] { crc = Self.crcStep(crc, b) }
            out.append(contentsOf: buffer[position..<(position + n)])
            position += n
            offset += n
        }
    }

    /// Consumes `count` bytes (into the CRC); returns how many there were.
    func skip(_ count: Int) throws -> Int {
        var left = count
        while left > 0 {
            if position == end, try !fill() { break }
            let n = min(left, end - position)
            var c = crc
            for b in buffer[position..<(position + n)] { c = Self.crcStep(c, b) }
            crc = c
            position += n
            offset += n
            left -= n
        }
        return count - left
    }

    private func fill() throws -> Bool {
        if atEOF { return false }
        position = 0
        end = 0
        let n = try buffer.withUnsafeMutableBytes { try source($0) }
        if n == 0 { atEOF = true; return false }
        end = n
        return true
    }

    /// The FIT protocol's CRC-16 over `bytes` (reflected polynomial 0xA001).
    static func crc16<C: Collection>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
        bytes.reduce(0) { crcStep($0, $1) }
    }

    /// One byte into the CRC, a nibble at a time through the protocol's 16-entry table.
    @inline(__always)
    static func crcStep(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        var crc = crc
        var tmp = nibbleTable[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ nibbleTable[Int(byte & 0xF)]
        tmp = nibbleTable[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        return crc ^ tmp ^ nibbleTable[Int((byte >> 4) & 0xF)]
    }

    private static let nibbleTable: [UInt16] = (0..<16).map { nibble in
        var crc = UInt16(nibble)
        for _ in 0..<4 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }
}
