import Testing
@testable import RunWalkCore

@Suite("HeartRateMeasurement")
struct HeartRateMeasurementTests {
    @Test("uint8 value, no contact support")
    func uint8() throws {
        let m = try HeartRateMeasurement(bytes: [0x00, 142])
        #expect(m.rawBPM == 142 && m.bpm == 142 && m.contact == .notSupported)
        #expect(m.energyKilojoules == nil && m.rrIntervalsSeconds.isEmpty && m.rrIntervalsDropped == 0)
    }

    @Test("uint16 little-endian value")
    func uint16() throws {
        let m = try HeartRateMeasurement(bytes: [0x01, 0x9C, 0x00])
        #expect(m.rawBPM == 156 && m.bpm == 156)
        // A uint16 above the plausible range is no heart rate.
        #expect(try HeartRateMeasurement(bytes: [0x01, 0x2C, 0x01]).bpm == nil)
    }

    @Test("sensor contact bits", arguments: [
        (UInt8(0x00), HeartRateMeasurement.Contact.notSupported, Optional(120)),
        (UInt8(0x02), .notSupported, 120),
        (UInt8(0x04), .notDetected, nil),
        (UInt8(0x06), .detected, 120),
    ])
    func contact(flags: UInt8, contact: HeartRateMeasurement.Contact, bpm: Int?) throws {
        let m = try HeartRateMeasurement(bytes: [flags, 120])
        #expect(m.contact == contact)
        #expect(m.bpm == bpm, "contact \(contact)")
    }

    @Test("energy expended, then RR intervals in 1/1024 s")
    func energyAndRR() throws {
        // flags: uint8, contact detected, energy, RR; 150 bpm; 1000 kJ; RR 410/1024 and 1024/1024 s.
        let m = try HeartRateMeasurement(bytes: [0x1E, 150, 0xE8, 0x03, 0x9A, 0x01, 0x00, 0x04])
        #expect(m.bpm == 150 && m.contact == .detected && m.energyKilojoules == 1000)
        #expect(m.rrIntervalsSeconds == [410.0 / 1024, 1.0])
    }

    @Test("uint16 value with RR intervals, no energy")
    func uint16WithRR() throws {
        let m = try HeartRateMeasurement(bytes: [0x11, 0x50, 0x00, 0x00, 0x03, 0x00, 0x03, 0x00, 0x03])
        #expect(m.bpm == 80 && m.energyKilojoules == nil)
        #expect(m.rrIntervalsSeconds == [0.75, 0.75, 0.75])
    }

    @Test("RR intervals out of range are dropped and counted")
    func rrOutOfRange() throws {
        // 0, 100/1024 s (too short), 4096/1024 s (too long), 800/1024 s (kept).
        let m = try HeartRateMeasurement(bytes: [0x10, 77, 0, 0, 100, 0, 0x00, 0x10, 0x20, 0x03])
        #expect(m.rrIntervalsSeconds == [800.0 / 1024])
        #expect(m.rrIntervalsDropped == 3)
    }

    @Test("a trailing odd byte after the RR list is ignored")
    func oddTail() throws {
        let m = try HeartRateMeasurement(bytes: [0x10, 90, 0x00, 0x03, 0x07])
        #expect(m.rrIntervalsSeconds == [0.75])
    }

    @Test("0 bpm, and 255 bpm with the contact lost, are no heart rate")
    func noHeartRate() throws {
        #expect(try HeartRateMeasurement(bytes: [0x00, 0]).bpm == nil)
        #expect(try HeartRateMeasurement(bytes: [0x04, 255]).bpm == nil)
        #expect(try HeartRateMeasurement(bytes: [0x06, 255]).bpm == nil)
        #expect(HeartRateSample(seconds: 1, measurement: try HeartRateMeasurement(bytes: [0x04, 130])) == nil)
    }

    @Test("short and empty notifications", arguments: [
        ([UInt8](), HeartRateMeasurementError.empty),
        ([0x00], .short(field: .value, needed: 2, got: 1)),
        ([0x01, 0x50], .short(field: .value, needed: 3, got: 2)),
        ([0x08, 120, 0x10], .short(field: .energy, needed: 4, got: 3)),
        ([0x09, 120, 0, 0x10], .short(field: .energy, needed: 5, got: 4)),
    ])
    func short(bytes: [UInt8], error: HeartRateMeasurementError) {
        #expect(throws: error) { try HeartRateMeasurement(bytes: bytes) }
    }

    @Test("the error says what was short")
    func message() {
        #expect(HeartRateMeasurementError.short(field: .energy, needed: 4, got: 3).description
            == "heart rate measurement: 3 bytes, the energy expended needs 4")
    }

    @Test("file values: 0, 255 and NaN are no sample")
    func fileValues() {
        #expect(HeartRateSample(seconds: 0, fileBPM: 141.6)?.bpm == 142)
        #expect(HeartRateSample(seconds: 0, fileBPM: 0) == nil)
        #expect(HeartRateSample(seconds: 0, fileBPM: 255) == nil)
        #expect(HeartRateSample(seconds: 0, fileBPM: .nan) == nil)
    }
}
