/// A minimal encoder for the FIT binary protocol: a 14-byte file header, definition and
/// data messages with normal record headers (little-endian), and the CRC-16 trailer.
///
/// Written from the protocol's published facts: header = size, protocol version, profile
/// version, data size, ".FIT", header CRC; a record header byte has bit 6 set for a
/// definition message and the local message type in its low four bits; a definition
/// message lists (field number, size, base type) triples; invalid values are all-ones
/// (or the signed maximum, or zero for the `z` types).
public struct FITEncoder {
    /// The base types RunWalk writes.
    public enum BaseType: UInt8, Sendable {
        case enumeration = 0x00, sint8 = 0x01, uint8 = 0x02, sint16 = 0x83, uint16 = 0x84
        case sint32 = 0x85, uint32 = 0x86, uint32z = 0x8C

        var size: Int {
            switch self {
            case .enumeration, .sint8, .uint8: return 1
            case .sint16, .uint16: return 2
            case .sint32, .uint32, .uint32z: return 4
            }
        }

        /// The value that means "not given".
        var invalid: UInt64 {
            switch self {
            case .enumeration, .uint8: return 0xFF
            case .sint8: return 0x7F
            case .uint16: return 0xFFFF
            case .sint16: return 0x7FFF
            case .uint32: return 0xFFFF_FFFF
            case .sint32: return 0x7FFF_FFFF
            case .uint32z: return 0
            }
        }

        /// The valid range (the invalid value excluded).
        var range: ClosedRange<Int64> {
            switch self {
            case .enumeration, .uint8: return 0...0xFE
            case .sint8: return -0x7F...0x7E
            case .uint16: return 0...0xFFFE
            case .sint16: return -0x7FFF...0x7FFE
            case .uint32: return 0...0xFFFF_FFFE
            case .sint32: return -0x7FFF_FFFF...0x7FFF_FFFE
            case .uint32z: return 1...0xFFFF_FFFF
            }
        }
    }

    /// One field of a message: its number in the profile, its base type and its raw
    /// (already scaled and offset) values, one for a plain field, several for an array field
    /// (such as `hrv.time`); nil writes the invalid value.
    public struct Field: Sendable {
        /// Field number in the message's profile.
        public var number: UInt8
        /// How each value is stored.
        public var type: BaseType
        /// The raw values (one unless the field is an array); nil for invalid.
        public var values: [Int64?]

        /// A field from its number, type and raw value.
        public init(_ number: UInt8, _ type: BaseType, _ value: Int64?) {
            self.init(number, type, array: [value])
        }

        /// An array field: `values.count` values of `type` (at least one).
        public init(_ number: UInt8, _ type: BaseType, array values: [Int64?]) {
            self.number = number
            self.type = type
            self.values = values.isEmpty ? [nil] : values
        }

        /// The field's size in a data message, bytes.
        var size: Int { type.size * values.count }
    }

    private struct Layout: Equatable {
        var globalMessage: UInt16
        var fields: [UInt8]
        var types: [UInt8]
        var sizes: [Int]
    }

    private var records: [UInt8] = []
    private var localTypes: [Layout?] = Array(repeating: nil, count: 16)
    private var nextLocal = 0

    /// An empty file.
    public init() {}

    /// Appends a data message, preceded by a definition message when its layout is new.
    public mutating func write(message globalMessage: UInt16, _ fields: [Field]) {
        let layout = Layout(globalMessage: globalMessage, fields: fields.map(\.number), types: fields.map(\.type.rawValue),
                            sizes: fields.map(\.size))
        let local: Int
        if let existing = localTypes.firstIndex(where: { $0 == layout }) {
            local = existing
        } else {
            local = nextLocal
            nextLocal = (nextLocal + 1) % 16
            localTypes[local] = layout
            records.append(0x40 | UInt8(local))
            records.append(0)  // reserved
            records.append(0)  // architecture: little-endian
            appendLittleEndian(UInt64(globalMessage), size: 2)
            records.append(UInt8(fields.count))
            for field in fields {
                records.append(field.number)
                records.append(UInt8(field.size))
                records.append(field.type.rawValue)
            }
        }
        records.append(UInt8(local))
        for field in fields {
            for value in field.values {
                let raw: UInt64
                if let value {
                    let clamped = min(max(value, field.type.range.lowerBound), field.type.range.upperBound)
                    raw = UInt64(bitPattern: clamped)
                } else {
                    raw = field.type.invalid
                }
                appendLittleEndian(raw, size: field.type.size)
            }
        }
    }

    /// The complete file: header, records and file CRC.
    public func file(profileVersion: UInt16 = 21218) -> [UInt8] {
        var header: [UInt8] = [14, 0x10]
        header += Self.littleEndian(UInt64(profileVersion), size: 2)
        header += Self.littleEndian(UInt64(records.count), size: 4)
        header += Array(".FIT".utf8)
        header += Self.littleEndian(UInt64(Self.crc16(header)), size: 2)
        var bytes = header + records
        bytes += Self.littleEndian(UInt64(Self.crc16(bytes)), size: 2)
        return bytes
    }

    /// The FIT CRC: CRC-16 with the reflected polynomial 0xA001, starting from zero.
    public static func crc16<C: Collection>(_ bytes: C, start: UInt16 = 0) -> UInt16 where C.Element == UInt8 {
        var crc = start
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1
            }
        }
        return crc
    }

    private mutating func appendLittleEndian(_ value: UInt64, size: Int) {
        records += Self.littleEndian(value, size: size)
    }

    private static func littleEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
