import RunWalkReport

/// Writes small FIT files by hand for the tests: definitions in either byte order, developer
/// fields, normal and compressed-timestamp record headers, header and file CRCs.
struct FITBuilder {
    private var records: [UInt8] = []
    private var definitions: [UInt8: (bigEndian: Bool, sizes: [Int], developerBytes: Int)] = [:]

    /// FIT seconds (since 1989-12-31 UTC) as Unix milliseconds.
    static func unixMilliseconds(_ fitSeconds: UInt32) -> Int64 { (Int64(fitSeconds) + 631_065_600) * 1000 }

    /// Degrees as semicircles.
    static func semicircles(_ degrees: Double) -> UInt64 {
        UInt64(UInt32(bitPattern: Int32((degrees * 2_147_483_648 / 180).rounded())))
    }

    /// A definition message: fields as (number, size, base type), developer fields as (number, size, index).
    mutating func define(local: UInt8, global: UInt16, bigEndian: Bool, fields: [(UInt8, UInt8, UInt8)],
                         developer: [(UInt8, UInt8, UInt8)] = []) {
        records.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
        records.append(0)
        records.append(bigEndian ? 1 : 0)
        records += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        records.append(UInt8(fields.count))
        for field in fields { records += [field.0, field.1, field.2] }
        if !developer.isEmpty {
            records.append(UInt8(developer.count))
            for field in developer { records += [field.0, field.1, field.2] }
        }
        definitions[local] = (bigEndian, fields.map { Int($0.1) }, developer.reduce(0) { $0 + Int($1.1) })
    }

    /// A data message of `local` with one value per defined field, in the definition's byte
    /// order; `timeOffset` writes a compressed-timestamp header with those five bits.
    mutating func data(local: UInt8, _ values: [UInt64], developer: [UInt8] = [], timeOffset: UInt8? = nil) {
        guard let definition = definitions[local] else { return }
        if let timeOffset {
            records.append(0x80 | (local << 5) | (timeOffset & 0x1F))
        } else {
            records.append(local)
        }
        for (value, size) in zip(values, definition.sizes) {
            var bytes = (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
            if definition.bigEndian { bytes.reverse() }
            records += bytes
        }
        records += developer.prefix(definition.developerBytes)
    }

    /// A data message of `local` written as raw bytes per field (an array field such as `hrv.time`),
    /// each field's bytes as given, so the test decides the byte order.
    mutating func data(local: UInt8, fieldBytes: [[UInt8]]) {
        records.append(local)
        for bytes in fieldBytes { records += bytes }
    }

    /// uint16 values as bytes, little or big endian.
    static func uint16s(_ values: [UInt16], bigEndian: Bool) -> [UInt8] {
        values.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// The whole file: the header (14 bytes with its CRC, or the older 12 without), the records, the file CRC.
    func file(headerSize: UInt8 = 14) -> [UInt8] {
        let size = UInt32(records.count)
        var header: [UInt8] = [headerSize, 0x20, 0x54, 0x08, UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF),
                               UInt8(size >> 24), 0x2E, 0x46, 0x49, 0x54]
        if headerSize == 14 {
            let headerCRC = FITEncoder.crc16(header)
            header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
        }
        var bytes = header + records
        let crc = FITEncoder.crc16(bytes)
        bytes += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        return bytes
    }
}
