import RunWalkCore

/// Decodes FIT activity files into points, written from the FIT protocol: a header (its size,
/// data size and `.FIT`), records that are definitions (per local message type: architecture,
/// global message number, fields as (number, size, base type), developer fields) or data (a
/// normal header, or a compressed-timestamp header whose five bits advance the last
/// timestamp), and a CRC-16 over header and data. Several FIT files chained in one are read
/// in turn. The bytes are streamed: memory does not grow with the file.
///
/// `record` messages (20) become points: timestamp (253, seconds since 1989-12-31 UTC),
/// position_lat/long (0/1, semicircles), enhanced_altitude (78) else altitude (2) (÷5 − 500 m),
/// enhanced_speed (73) else speed (6) (÷1000 m/s), heart_rate (3, bpm; 0xFF none). A timer stop `event` (21) breaks the
/// segment before the next record. `hrv` messages (78) carry the beat-to-beat (RR) intervals in
/// `time` (0, an array of uint16, ÷1000 s; 0xFFFF none); they have no timestamp of their own and
/// come as the beats happen, so the beats since the last record go with the next record that
/// has a heart rate.
struct FITDecoder {
    let path: String

    /// Seconds from the Unix epoch to the FIT epoch.
    static let epochOffset: Int64 = 631_065_600
    /// RR intervals kept waiting for a record with a heart rate (about 20 minutes of beats).
    static let pendingRRLimit = 1200

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
        FITByteStream.crc16(bytes)
    }

    /// Decodes every chained file in `bytes`, handing points to `pipeline`.
    func decode(_ bytes: [UInt8], into pipeline: inout TrackPointPipeline, _ emit: (Fix) throws -> Void) throws {
        try decode(FITByteStream(head: bytes), into: &pipeline, emit)
    }

    /// Checks the framing of every chained file (headers, sizes, CRCs) without decoding records,
    /// so a damaged file fails before any point is handed out; returns the warnings it would give.
    func check(_ stream: FITByteStream) throws -> [String] {
        var pipeline = TrackPointPipeline()
        try decode(stream, into: &pipeline, records: false) { _ in }
        return pipeline.warnings.entries.map(\.message)
    }

    /// Decodes every chained file read from `stream`, handing points to `pipeline` as they come.
    func decode(_ stream: FITByteStream, into pipeline: inout TrackPointPipeline, records: Bool = true,
                _ emit: (Fix) throws -> Void) throws {
        var files = 0
        while true {
            stream.resetCRC()
            guard let headerSize = try stream.byte() else { break }
            if files > 0, headerSize == 0 {
                // Padding after the last chained file (some devices write zeros) is not another file.
                while let b = try stream.byte() {
                    if b != 0 { throw failure(stream.offset - 1, "not a FIT header (no .FIT signature)") }
                }
                break
            }
            try decodeFile(stream, headerSize: Int(headerSize), into: &pipeline, records: records, emit)
            files += 1
        }
        if files == 0 { throw failure(0, "empty file") }
    }

    /// Decodes the file whose first byte (the header's size) was just read.
    private func decodeFile(_ stream: FITByteStream, headerSize: Int, into pipeline: inout TrackPointPipeline, records: Bool,
                            _ emit: (Fix) throws -> Void) throws {
        let start = stream.offset - 1
        var header: [UInt8] = []
        try stream.read(11, into: &header)
        guard header.count == 11 else { throw failure(start, "truncated FIT header (\(header.count + 1) bytes)") }
        header.insert(UInt8(headerSize), at: 0)
        guard headerSize >= 12, header[8] == 0x2E, header[9] == 0x46, header[10] == 0x49, header[11] == 0x54 else {
            throw failure(start, "not a FIT header (no .FIT signature)")
        }
        let headerCRC = stream.crc
        let dataSize = Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24
        let dataStart = start + headerSize, dataEnd = dataStart + dataSize
        let truncated = { (at: Int) in
            failure(at, "the header announces \(dataSize) bytes of data and a CRC, but the file ends \(dataEnd + 2 - at) byte(s) short (truncated)")
        }
        if headerSize >= 14 {
            var rest: [UInt8] = []
            try stream.read(headerSize - 12, into: &rest)
            guard rest.count == headerSize - 12 else { throw truncated(stream.offset) }
            let stored = UInt16(rest[0]) | UInt16(rest[1]) << 8
            if stored != 0, stored != headerCRC {
                throw failure(start + 12, "header CRC is 0x\(hex(stored)), the header's bytes give 0x\(hex(headerCRC)) (corrupt header)")
            }
        } else if try stream.skip(headerSize - 12) != headerSize - 12 {
            throw truncated(stream.offset)
        }
        if records {
            try decodeRecords(stream, to: dataEnd, truncated: truncated, into: &pipeline, emit)
        } else if try stream.skip(dataSize) != dataSize {
            throw truncated(stream.offset)
        }
        let computedCRC = stream.crc
        var stored: [UInt8] = []
        try stream.read(2, into: &stored)
        if stored.isEmpty {
            // Everything but the CRC: a recording cut off as the device wrote its last two bytes.
            pipeline.warnings.add("the file ends without its 2-byte CRC (cut off as it was written?); its data were read unchecked",
                                  at: "byte \(dataEnd)")
            return
        }
        guard stored.count == 2 else { throw truncated(stream.offset) }
        let storedCRC = UInt16(stored[0]) | UInt16(stored[1]) << 8
        guard storedCRC == computedCRC else {
            throw failure(dataEnd, "file CRC is 0x\(hex(storedCRC)), the data give 0x\(hex(computedCRC)) (corrupt or truncated file)")
        }
    }

    private func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    private func decodeRecords(_ stream: FITByteStream, to dataEnd: Int, truncated: (Int) -> TrackFileError,
                               into pipeline: inout TrackPointPipeline, _ emit: (Fix) throws -> Void) throws {
        var definitions = [Definition?](repeating: nil, count: 16)
        var lastTimestamp: UInt32?
        var breakPending = false
        var pendingRR: [Double] = []
        var bytes: [UInt8] = []
        /// The next `count` bytes of the record that starts at `recordStart`.
        func take(_ count: Int, _ recordStart: Int, _ what: String) throws {
            guard stream.offset + count <= dataEnd else { throw failure(recordStart, what) }
            try stream.read(count, into: &bytes)
            guard bytes.count == count else { throw truncated(stream.offset) }
        }
        while stream.offset < dataEnd {
            let recordStart = stream.offset
            guard let header = try stream.byte() else { throw truncated(stream.offset) }
            if header & 0x40 != 0, header & 0x80 == 0 {
                // Definition message.
                let past = "definition message runs past the end of the data"
                try take(5, recordStart, past)
                guard bytes[1] <= 1 else { throw failure(recordStart + 2, "architecture \(bytes[1]) is neither 0 (little endian) nor 1 (big endian)") }
                let bigEndian = bytes[1] == 1
                let global = bigEndian ? UInt16(bytes[2]) << 8 | UInt16(bytes[3]) : UInt16(bytes[3]) << 8 | UInt16(bytes[2])
                let count = Int(bytes[4])
                try take(count * 3, recordStart, past)
                let fields = (0..<count).map { k in (number: bytes[3 * k], size: Int(bytes[3 * k + 1])) }
                var developerBytes = 0
                if header & 0x20 != 0 {
                    try take(1, recordStart, past)
                    let developerCount = Int(bytes[0])
                    try take(developerCount * 3, recordStart, "developer field definitions run past the end of the data")
                    for k in 0..<developerCount { developerBytes += Int(bytes[3 * k + 1]) }
                }
                definitions[Int(header & 0x0F)] = Definition(bigEndian: bigEndian, global: global, fields: fields, developerBytes: developerBytes)
                continue
            }
            let local = header & 0x80 != 0 ? Int((header >> 5) & 0x03) : Int(header & 0x0F)
            guard let definition = definitions[local] else {
                throw failure(recordStart, "data message of local type \(local) before any definition of it")
            }
            try take(definition.size, recordStart, "data message runs past the end of the data (truncated)")
            var timestamp: UInt32?
            if header & 0x80 != 0 {
                guard let last = lastTimestamp else {
                    throw failure(recordStart, "compressed timestamp before any full timestamp")
                }
                let offset = UInt32(header & 0x1F)
                var value = (last & ~0x1F) &+ offset
                if offset < last & 0x1F { value &+= 0x20 }
                timestamp = value
            }
            var values: [UInt8: UInt64] = [:]
            var rrValues: [UInt16] = []
            var at = 0
            for field in definition.fields {
                if definition.global == 78, field.number == 0 {
                    // hrv.time: an array of uint16, whatever its length.
                    for k in stride(from: 0, to: field.size - 1, by: 2) {
                        let first = UInt16(bytes[at + k]), second = UInt16(bytes[at + k + 1])
                        rrValues.append(definition.bigEndian ? first << 8 | second : second << 8 | first)
                    }
                }
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
            // Developer fields (read with the rest) are skipped: nothing RunWalk reads lives there.
            if let t = values[253], t != 0xFFFF_FFFF, definition.fields.contains(where: { $0.number == 253 && $0.size == 4 }) {
                timestamp = UInt32(t)
            }
            if let timestamp { lastTimestamp = timestamp }
            switch definition.global {
            case 21:
                // Timer stop (a pause or the end): what follows is a new segment.
                if values[0] == 0, let type = values[1], type == 1 || type == 4 || type == 9 { breakPending = true }
            case 78:
                for raw in rrValues where raw != 0xFFFF {
                    let seconds = Double(raw) / 1000
                    guard HeartRateMeasurement.plausibleRRSeconds.contains(seconds) else {
                        pipeline.warnings.add("# hrv RR intervals outside 0.25–2.5 s dropped", at: "byte \(recordStart)")
                        continue
                    }
                    pendingRR.append(seconds)
                }
                if pendingRR.count > Self.pendingRRLimit {
                    // Beats with no heart-rate record after them for a long while: the oldest go.
                    pipeline.warnings.add("# hrv RR intervals with no heart-rate record after them dropped", at: "byte \(recordStart)",
                                          count: pendingRR.count - Self.pendingRRLimit)
                    pendingRR.removeFirst(pendingRR.count - Self.pendingRRLimit)
                }
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
                var rr: [Double] = []
                if let heartRate, HeartRateMeasurement.plausibleBPM.contains(Int(heartRate)) { swap(&rr, &pendingRR) }
                try pipeline.add(TrackFilePoint(latitude: latitude, longitude: longitude, time: time, altitude: altitude,
                                                speed: speed, hdop: nil, startsSegment: breakPending, place: "byte \(recordStart)",
                                                heartRate: heartRate, rrIntervalsSeconds: rr), emit)
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
