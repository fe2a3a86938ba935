import Foundation
import Testing
import RunWalkCore
@testable import RunWalkIO

@Suite("NMEAFileReader")
struct NMEAFileReaderTests {
    static let sample = """
        # a comment
        $GPGGA,063000.00,4722.614000,N,00832.502000,E,1,09,0.8,410.2,M,48.0,M,,*6D
        $GPRMC,063000.00,A,4722.614000,N,00832.502000,E,5.83,90.0,120426,,,A*51
        $GPGGA,063001.00,4722.614000,N,00832.504000,E,1,09,0.8,410.2,M,48.0,M,,*6A
        $GPGGA,063001.00,4722.614000,N,00832.504000,E,1,09,0.8,410.2,M,48.0,M,,*00
        $GPRMC,063001.00,A,4722.614000,N,00832.504000,E,5.83,90.0,120426,,,A*56

        """

    @Test("a missing file is named in the error")
    func missingFile() {
        var reader = NMEAFileReader(path: "/nonexistent/track.nmea")
        #expect(throws: InputError.notFound(path: "/nonexistent/track.nmea")) { try reader.read { _ in } }
    }

    @Test("fixes come out per epoch with the RMC date; a bad checksum is counted with its line")
    func epochs() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rw-\(UUID().uuidString).nmea").path
        try Self.sample.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = NMEAFileReader(path: path)
        var fixes: [Fix] = []
        try reader.read { fixes.append($0) }
        #expect(fixes.count == 2)
        #expect(fixes.first?.time.iso8601() == "2026-04-12T06:30:00.000Z")
        #expect(fixes.first?.speedMetresPerSecond.map { abs($0 - 3.0) < 0.01 } == true)
        #expect(reader.decoder.statistics.linesBad == 1)
        #expect(reader.diagnostics.entries == [.init(path: path, firstLine: 5, problem: .badChecksum, count: 1)])
    }

    @Test("a line longer than the framer keeps is counted as too long, not decoded; CR LF and LF read alike")
    func overlongAndLineEndings() throws {
        let gga = "$GPGGA,063002.00,4722.614000,N,00832.506000,E,1,09,0.8,410.2,M,48.0,M,,"
        let long = gga + String(repeating: "9", count: 5000)
        let text = Self.sample.replacingOccurrences(of: "\n", with: "\r\n") + long + "\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rw-\(UUID().uuidString).nmea").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = NMEAFileReader(path: path)
        var fixes: [Fix] = []
        try reader.read { fixes.append($0) }
        #expect(fixes.count == 2, "the cut GGA makes no epoch")
        #expect(reader.decoder.statistics.linesBad == 2)
        #expect(reader.diagnostics.entries.map(\.problem) == [.badChecksum, .tooLong])
        #expect(reader.diagnostics.entries.last?.firstLine == 7)
    }
}
