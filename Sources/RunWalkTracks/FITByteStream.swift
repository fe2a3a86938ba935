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
            consume(n)
            out.append(contentsOf: buffer[(position - n)..<position])
        }
    }

    /// Consumes `count` bytes (into the CRC); returns how many there were.
    func skip(_ count: Int) throws -> Int {
        var left = count
        while left > 0 {
            if position == end, try !fill() { break }
            let n = min(left, end - position)
            consume(n)
            left -= n
        }
        return count - left
    }

    /// Moves past `n` bytes of the buffer, adding them to the CRC.
    private func consume(_ n: Int) {
        let from = position
        crc = buffer.withUnsafeBufferPointer { Self.crcUpdate(crc, UnsafeBufferPointer(rebasing: $0[from..<(from + n)])) }
        position += n
        offset += n
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
        Array(bytes).withUnsafeBufferPointer { crcUpdate(0, $0) }
    }

    /// `crc` continued over `bytes`, a byte at a time through a 256-entry table (the protocol's
    /// nibble table applied twice gives the same values).
    static func crcUpdate(_ crc: UInt16, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt16 {
        table.withUnsafeBufferPointer { table in
            var crc = crc
            for byte in bytes { crc = (crc >> 8) ^ table[Int((crc ^ UInt16(byte)) & 0xFF)] }
            return crc
        }
    }

    /// One byte into the CRC.
    static func crcStep(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        (crc >> 8) ^ table[Int((crc ^ UInt16(byte)) & 0xFF)]
    }

    private static let table: [UInt16] = (0..<256).map { byte in
        var crc = UInt16(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }
}
