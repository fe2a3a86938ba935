import Foundation
import Testing
@testable import RunWalkCore

/// The telemetry on the repository's simulated sample tracks, against their truth files.
@Suite("Telemetry on SampleTracks")
struct TelemetrySampleTrackTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleTracks")
    static let present = FileManager.default.fileExists(atPath: folder.appendingPathComponent("track-loop.nmea").path)

    /// Distance over [0, duration] of the track, from every fix through one Telemetry.
    static func distance(_ name: String, durationSeconds: Double) throws -> Double {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        var decoder = NMEADecoder()
        var telemetry = Telemetry()
        var origin: UTCTime?
        var distance = 0.0
        func take(_ fix: Fix) {
            let o = origin ?? fix.time
            origin = o
            if fix.time.since(o) <= .milliseconds(Int64(durationSeconds * 1000)) { distance = telemetry.ingest(fix).distanceMetres }
        }
        for line in text.split(whereSeparator: \.isNewline) {
            for fix in decoder.feed(line: line).fixes { take(fix) }
        }
        for fix in decoder.finish() { take(fix) }
        return distance
    }

    @Test("distance within the goals: 0.5 % open sky and trail, 1 % city and GGA-only, under 1 m standing",
          .enabled(if: present, "SampleTracks/ is not beside Tests/"),
          arguments: [
              ("track-loop.nmea", 1800.0, 3888.65, 0.005),
              ("track-loop-gga.nmea", 1800.0, 3888.65, 0.01),
              ("city-stopgo.nmea", 2700.0, 4779.59, 0.01),
              ("demo-short.nmea", 240.0, 450.18, 0.005),
              ("standing-10min.nmea", 600.0, 0.0, 0.0),
          ])
    func distance(name: String, seconds: Double, truth: Double, tolerance: Double) throws {
        let ours = try Self.distance(name, durationSeconds: seconds)
        if truth == 0 {
            #expect(ours <= 1, "\(name): \(ours) m standing")
        } else {
            #expect(abs(ours - truth) / truth <= tolerance, "\(name): \(ours) m against \(truth) m")
        }
    }
}
