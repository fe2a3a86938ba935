import Foundation
import Testing

@Suite("runwalk fixes: formats and diagnostics")
struct FixesFormatsAndDiagnosticsTests {
    @Test("jsonl: one object per epoch with DESIGN.md's keys, absent values omitted")
    func jsonl() throws {
        let result = try RunWalkBinary.run(["fixes", "SampleTracks/demo-short.nmea"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 251)
        let first = try #require(lines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2026-04-21T19:00:00.000Z")
        for key in ["lat", "lon", "alt_msl", "speed_mps", "mode", "quality", "hdop", "sats"] {
            #expect(object[key] != nil, "key \(key) in \(first)")
        }
        #expect(result.stderr.contains("251 epochs"))
    }

    @Test("csv: a header, then one row per epoch")
    func csv() throws {
        let result = try RunWalkBinary.run(["fixes", "SampleTracks/demo-short.nmea", "--format", "csv"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("time,lat,lon,alt_msl,speed_mps,course_deg,mode,quality,hdop") == true)
        #expect(lines.count == 252)
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count
            == lines[0].split(separator: ",").count })
    }

    @Test("bad lines are reported once per cause with file and line, and counted at the end")
    func diagnostics() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rw-fixes-\(UUID().uuidString).nmea").path
        try """
            $GPGGA,120000,5130.0000,N,00007.5000,W,1,05,1.0,20.0,M,47.0,M,,*00
            junk
            $GPGGA,120001,5130.0000,N,00007.5000,W,1,05,1.0,20.0,M,47.0,M,,*00
            more junk

            """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try RunWalkBinary.run(["fixes", path])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("\(path):1: checksum mismatch"))
        #expect(result.stderr.contains("\(path):2: not an NMEA sentence"))
        #expect(result.stderr.contains("\(path): 2 lines with checksum mismatch (first at line 1)"))
        #expect(!result.stderr.contains(":3:"), "a cause is shown once")
    }

    @Test("a missing track exits 2 naming it")
    func missing() throws {
        let result = try RunWalkBinary.run(["fixes", "/nonexistent/track.nmea"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/track.nmea"))
    }
}
