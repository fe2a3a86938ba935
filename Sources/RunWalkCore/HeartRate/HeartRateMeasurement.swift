/// One Heart Rate Measurement notification (characteristic 0x2A37), as the Heart Rate Service
/// specification lays it out:
///
/// ```
/// byte 0   flags: bit 0 value format (0 uint8, 1 uint16 LE), bits 1-2 sensor contact
///          (0/1 not supported, 2 not detected, 3 detected), bit 3 energy expended present,
///          bit 4 RR intervals present
/// then     the value (1 or 2 bytes), the energy expended (uint16 LE, kJ) when flagged,
///          and every RR interval (uint16 LE, 1/1024 s) that fits in the rest
/// ```
///
/// A strap says "no heart rate" in several ways (0 bpm, 255 bpm with the contact lost, contact
/// not detected): `bpm` is nil for each of them, so no average ever counts a 0.
public struct HeartRateMeasurement: Sendable, Equatable {
    /// What the strap says about its skin contact.
    public enum Contact: Sendable, Equatable {
        /// The strap cannot tell (bits 0 or 1).
        case notSupported
        /// No skin contact: the value means nothing.
        case notDetected
        case detected
    }

    /// The value as sent, beats per minute.
    public var rawBPM: Int
    public var contact: Contact
    /// Energy expended since the strap's last reset, kilojoules, when sent.
    public var energyKilojoules: Int?
    /// The RR intervals in range, seconds (1/1024 s resolution).
    public var rrIntervalsSeconds: [Double]
    /// RR intervals sent but out of the plausible range, left out of `rrIntervalsSeconds`.
    public var rrIntervalsDropped: Int

    /// The plausible heart rate for a runner, beats per minute; outside it there is no heart rate.
    public static let plausibleBPM = 20...250
    /// The plausible RR interval, seconds (240 down to 24 beats per minute).
    public static let plausibleRRSeconds = 0.25...2.5

    /// The heart rate to use, beats per minute; nil when the strap has none (0, out of range,
    /// or no skin contact).
    public var bpm: Int? {
        guard contact != .notDetected, Self.plausibleBPM.contains(rawBPM) else { return nil }
        return rawBPM
    }

    /// A measurement from its parts (tests, files).
    public init(rawBPM: Int, contact: Contact = .notSupported, energyKilojoules: Int? = nil,
                rrIntervalsSeconds: [Double] = [], rrIntervalsDropped: Int = 0) {
        self.rawBPM = rawBPM
        self.contact = contact
        self.energyKilojoules = energyKilojoules
        self.rrIntervalsSeconds = rrIntervalsSeconds
        self.rrIntervalsDropped = rrIntervalsDropped
    }

    /// Parses a notification's bytes; a notification too short for what its flags announce is
    /// thrown with the byte count it needed. A trailing odd byte after the RR intervals is ignored.
    public init(bytes: [UInt8]) throws(HeartRateMeasurementError) {
        guard let flags = bytes.first else { throw .empty }
        var offset = 1
        func uint16(_ what: HeartRateMeasurementError.Field) throws(HeartRateMeasurementError) -> Int {
            guard offset + 2 <= bytes.count else { throw .short(field: what, needed: offset + 2, got: bytes.count) }
            defer { offset += 2 }
            return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
        }
        if flags & 0x01 != 0 {
            rawBPM = try uint16(.value)
        } else {
            guard bytes.count >= 2 else { throw .short(field: .value, needed: 2, got: bytes.count) }
            rawBPM = Int(bytes[1])
            offset = 2
        }
        switch (flags >> 1) & 0x03 {
        case 2: contact = .notDetected
        case 3: contact = .detected
        default: contact = .notSupported
        }
        energyKilojoules = flags & 0x08 != 0 ? try uint16(.energy) : nil
        rrIntervalsSeconds = []
        rrIntervalsDropped = 0
        if flags & 0x10 != 0 {
            while offset + 2 <= bytes.count {
                let seconds = Double(try uint16(.rrInterval)) / 1024
                if Self.plausibleRRSeconds.contains(seconds) {
                    rrIntervalsSeconds.append(seconds)
                } else {
                    rrIntervalsDropped += 1
                }
            }
        }
    }
}

/// Why a Heart Rate Measurement notification could not be read.
public enum HeartRateMeasurementError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The part of the measurement that did not fit.
    public enum Field: String, Sendable {
        case value = "heart rate value", energy = "energy expended", rrInterval = "RR interval"
    }

    case empty
    case short(field: Field, needed: Int, got: Int)

    public var description: String {
        switch self {
        case .empty: return "heart rate measurement: no bytes"
        case .short(let field, let needed, let got):
            return "heart rate measurement: \(got) bytes, the \(field.rawValue) needs \(needed)"
        }
    }
}
