import RunWalkCore

/// Decodes FIT activity files into points, written from the FIT protocol: a header (its size,
/// data size and `.FIT`), records that are definitions (per local message type: architecture,
/// global message number, fields as (number, size, base type), developer fields) or data (a
/// normal header, or a compressed-timestamp header whose five bits advance the last
/// timestamp), and a CRC-16 over header and data. Several FIT files chained in one are read
/// in turn.
///
/// `record` messages (20) become points: timestamp (253, seconds since 1989-12-31 UTC),
/// position_lat/long (0/1, semicircles), enhanced_altitude (78) else altitude (2) (÷5 − 500 m),
/// enhanced_speed (73) else speed (6) (÷1000 m/s), heart_rate (3, bpm; 0xFF none). A timer stop `event` (21) breaks the
/// segment before the next record.
struct FITDecoder {
    let path: String

    /// Seconds from the Unix epoch to the FIT epoch.
    static let epochOffset: Int64 = 631_065_600

    private struct Definition {
        var bigEndian: Bool
        var global: UInt16
        var fields: [(number: UInt8, size: Int)]
        var developerBytes: Int
        var size: Int { fields.reduce(developerBytes) { $0 + $1.size } }
    }

    private func failure(_ offset: Int, _ message: String) -> TrackFileError {
        TrackFileError(path: path, place: "byte \(offset)", message: message)
    }

    /// The FIT CRC-16 (reflected polynomial 0xA001, as the protocol's nibble table computes it).
    static func crc16<C: Collection>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    /// Decodes every chained file in `bytes`, handing points to `pipeline`.
    func decode(_ bytes: [UInt8], into pipeline: inout TrackPointPipeline, _ emit: (Fix) throws -> Void) throws {
        var start = 0
        var files = 0
        while start < bytes.count {
            // Padding after the last chained file (some devices write zeros) is not another file.
            if files > 0, bytes[start...].allSatisfy({ $0 == 0 }) { break }
            start = try decodeFile(bytes, at: start, into: &pipeline, emit)
            files += 1
        }
        if files == 0 { throw failure(0, "empty file") }
    }

    /// Decodes the file starting at `start`; returns the offset after its CRC.
    private func decodeFile(_ bytes: [UInt8], at start: Int, into pipeline: inout TrackPointPipeline,
                            _ emit: (Fix) throws -> Void) throws -> Int {
        guard start + 12 <= bytes.count else { throw failure(start, "truncated FIT header (\(bytes.count - start) bytes)") }
        let headerSize = Int(bytes[start])
        guard headerSize >= 12, bytes[start + 8] == 0x2E, bytes[start + 9] == 0x46, bytes[start + 10] == 0x49, bytes[start + 11] == 0x54 else {
            throw failure(start, "not a FIT header (no .FIT signature)")
        }
        let dataSize = Int(bytes[start + 4]) | Int(bytes[start + 5]) << 8 | Int(bytes[start + 6]) << 16 | Int(bytes[start + 7]) << 24
        let dataStart = start + headerSize, dataEnd = dataStart + dataSize
        guard dataEnd + 2 <= bytes.count else {
            throw failure(bytes.count, "the header announces \(dataSize) bytes of data and a CRC, but the file ends \(dataEnd + 2 - bytes.count) byte(s) short (truncated)")
        }
        if headerSize >= 14 {
            let stored = UInt16(bytes[start + 12]) | UInt16(bytes[start + 13]) << 8
            let computed = Self.crc16(bytes[start..<(start + 12)])
            if stored != 0, stored != computed {
                throw failure(start + 12, "header CRC is 0x\(hex(stored)), the header's bytes give 0x\(hex(computed)) (corrupt header)")
            }
        }
        let storedCRC = UInt16(bytes[dataEnd]) | UInt16(bytes[dataEnd + 1]) << 8
        let computedCRC = Self.crc16(bytes[start..<dataEnd])
        guard storedCRC == computedCRC else {
            throw failure(dataEnd, "file CRC is 0x\(hex(storedCRC)), the data give 0x\(hex(computedCRC)) (corrupt or truncated file)")
        }
        try decodeRecords(bytes, from: dataStart, to: dataEnd, into: &pipeline, emit)
        return dataEnd + 2
    }

    private func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    private func decodeRecords(_ bytes: [UInt8], from dataStart: Int, to dataEnd: Int, into pipeline: inout TrackPointPipeline,
                               _ emit: (Fix) throws -> Void) throws {
        var definitions = [Definition?](repeating: nil, count: 16)
        var lastTimestamp: UInt32?
        var breakPending = false
        var i = dataStart
        while i < dataEnd {
            let recordStart = i
            let header = bytes[i]
            i += 1
            if header & 0x40 != 0, header & 0x80 == 0 {
                // Definition message.
                guard i + 5 <= dataEnd else { throw failure(recordStart, "definition message runs past the end of the data") }
                let bigEndian = bytes[i + 1] == 1
                guard bytes[i + 1] <= 1 else { throw failure(i + 1, "architecture \(bytes[i + 1]) is neither 0 (little endian) nor 1 (big endian)") }
                let global = bigEndian ? UInt16(bytes[i + 2]) << 8 | UInt16(bytes[i + 3]) : UInt16(bytes[i + 3]) << 8 | UInt16(bytes[i + 2])
                let count = Int(bytes[i + 4])
                i += 5
                guard i + count * 3 <= dataEnd else { throw failure(recordStart, "definition message runs past the end of the data") }
                var fields: [(number: UInt8, size: Int)] = []
                for k in 0..<count { fields.append((bytes[i + 3 * k], Int(bytes[i + 3 * k + 1]))) }
                i += count * 3
                var developerBytes = 0
                if header & 0x20 != 0 {
                    guard i < dataEnd else { throw failure(recordStart, "definition message runs past the end of the data") }
                    let developerCount = Int(bytes[i])
                    i += 1
                    guard i + developerCount * 3 <= dataEnd else { throw failure(recordStart, "developer field definitions run past the end of the data") }
                    for k in 0..<developerCount { developerBytes += Int(bytes[i + 3 * k + 1]) }
                    i += developerCount * 3
                }
                definitions[Int(header & 0x0F)] = Definition(bigEndian: bigEndian, global: global, fields: fields, developerBytes: developerBytes)
                continue
            }
            let local = header & 0x80 != 0 ? Int((header >> 5) & 0x03) : Int(header & 0x0F)
            guard let definition = definitions[local] else {
                throw failure(recordStart, "data message of local type \(local) before any definition of it")
            }
            guard i + definition.size <= dataEnd else { throw failure(recordStart, "data message runs past the end of the data (truncated)") }
            var timestamp: UInt32?
            if header & 0x80 != 0 {
                guard let last = lastTimestamp else {
                    throw failure(recordStart, "compressed timestamp before any full timestamp")
                }
                let offset = UInt32(header & 0x1F)
                var value = (last & ~0x1F) + offset
                if offset < last & 0x1F { value += 0x20 }
                timestamp = value
            }
            var values: [UInt8: UInt64] = [:]
            var at = i
            for field in definition.fields {
                if field.size == 1 || field.size == 2 || field.size == 4 {
                    var value: UInt64 = 0
                    for k in 0..<field.size {
                        let byte = UInt64(bytes[definition.bigEndian ? at + k : at + field.size - 1 - k])
                        value = value << 8 | byte
                    }
                    values[field.number] = value
                }
                at += field.size
            }
            i += definition.size  // developer fields are skipped: nothing RunWalk reads lives there
            if let t = values[253], t != 0xFFFF_FFFF, definition.fields.contains(where: { $0.number == 253 && $0.size == 4 }) {
                timestamp = UInt32(t)
            }
            if let timestamp { lastTimestamp = timestamp }
            switch definition.global {
            case 21:
                // Timer stop (a pause or the end): what follows is a new segment.
                if values[0] == 0, let type = values[1], type == 1 || type == 4 || type == 9 { breakPending = true }
            case 20:
                guard let timestamp else {
                    pipeline.warnings.add("# records skipped: no timestamp", at: "byte \(recordStart)")
                    continue
                }
                guard let rawLat = field(values, definition, 0, size: 4), let rawLon = field(values, definition, 1, size: 4),
                      rawLat != 0x7FFF_FFFF, rawLon != 0x7FFF_FFFF else {
                    pipeline.warnings.add("# records without a position skipped (no fix, indoor)", at: "byte \(recordStart)")
                    continue
                }
                let latitude = Double(Int32(bitPattern: UInt32(rawLat))) * 180 / 2_147_483_648
                let longitude = Double(Int32(bitPattern: UInt32(rawLon))) * 180 / 2_147_483_648
                guard abs(latitude) <= 90, abs(longitude) <= 180 else {
                    pipeline.warnings.add("# records skipped: position out of range; the segment breaks there", at: "byte \(recordStart)")
                    breakPending = true
                    continue
                }
                var altitude: Double?
                if let raw = field(values, definition, 78, size: 4), raw != 0xFFFF_FFFF {
                    altitude = Double(raw) / 5 - 500
                } else if let raw = field(values, definition, 2, size: 2), raw != 0xFFFF {
                    altitude = Double(raw) / 5 - 500
                }
                var speed: Double?
                if let raw = field(values, definition, 73, size: 4), raw != 0xFFFF_FFFF {
                    speed = Double(raw) / 1000
                } else if let raw = field(values, definition, 6, size: 2), raw != 0xFFFF {
                    speed = Double(raw) / 1000
                }
                let time = UTCTime(milliseconds: (Int64(timestamp) + Self.epochOffset) * 1000)
                let heartRate = field(values, definition, 3, size: 1).flatMap { $0 == 0xFF ? nil : Double($0) }
                try pipeline.add(TrackFilePoint(latitude: latitude, longitude: longitude, time: time, altitude: altitude,
                                                speed: speed, hdop: nil, startsSegment: breakPending, place: "byte \(recordStart)",
                                                heartRate: heartRate), emit)
                breakPending = false
            default: break
            }
        }
    }

    /// A field's raw value when the definition gives it at the expected size.
    private func field(_ values: [UInt8: UInt64], _ definition: Definition, _ number: UInt8, size: Int) -> UInt64? {
        guard definition.fields.contains(where: { $0.number == number && $0.size == size }) else { return nil }
        return values[number]
    }
}
