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

    /// The telemetry after every fix of the track over [0, duration].
    static func telemetry(_ name: String, durationSeconds: Double, settings: TelemetrySettings = TelemetrySettings()) throws -> Telemetry {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        var decoder = NMEADecoder()
        var telemetry = Telemetry(settings: settings)
        var origin: UTCTime?
        var fixes: [Fix] = []
        for line in text.split(whereSeparator: \.isNewline) { fixes += decoder.feed(line: line).fixes }
        fixes += decoder.finish()
        for fix in fixes {
            let o = origin ?? fix.time
            origin = o
            if fix.time.since(o) <= .milliseconds(Int64(durationSeconds * 1000)) { _ = telemetry.ingest(fix) }
        }
        return telemetry
    }

    @Test("the offline smoother's km splits are near the truth's (city with dropouts and stops, track)",
          .enabled(if: present, "SampleTracks/ is not beside Tests/"),
          arguments: [("city-stopgo", 2700.0, 1.5), ("track-loop", 1800.0, 0.5)])
    func smoothedSplits(name: String, seconds: Double, toleranceSeconds: Double) throws {
        try Self.expectSmoothedSplits(name: name, seconds: seconds, toleranceSeconds: toleranceSeconds, settings: TelemetrySettings())
    }

    @Test("with the position-bias model the offline smoother's km splits are near the truth's too",
          .enabled(if: present, "SampleTracks/ is not beside Tests/"),
          arguments: [("city-stopgo", 2700.0, 1.5), ("track-loop", 1800.0, 1.0)])
    func biasModelSplits(name: String, seconds: Double, toleranceSeconds: Double) throws {
        var settings = TelemetrySettings()
        settings.smootherModelsPositionBias = true
        try Self.expectSmoothedSplits(name: name, seconds: seconds, toleranceSeconds: toleranceSeconds, settings: settings)
    }

    static func expectSmoothedSplits(name: String, seconds: Double, toleranceSeconds: Double, settings: TelemetrySettings) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name + ".truth.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let truth = (json["splits_km"] as? [[String: Any]] ?? []).compactMap { $0["elapsed_s"] as? Double }
        try #require(!truth.isEmpty)
        let series = try Self.telemetry(name + ".nmea", durationSeconds: seconds, settings: settings).smoothedDistanceSeries()
        var tracker = SplitTracker()
        for (t, d) in series { _ = tracker.add(elapsedSeconds: t, distanceMetres: d) }
        try #require(tracker.splits.count >= truth.count)
        for (ours, t) in zip(tracker.splits, truth) {
            #expect(abs(ours.elapsedSeconds - t) <= toleranceSeconds, "\(name) km \(ours.index): \(ours.elapsedSeconds) s against \(t) s")
        }
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
