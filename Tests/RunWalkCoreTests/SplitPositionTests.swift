import Foundation
import Testing
@testable import RunWalkCore

/// Where the runner truly is when a live km split is announced (issue 30, item 6): the split is
/// said at the fix that takes the live distance past the kilometre; the runner's true distance
/// then, from the truth file's 1 Hz speed, against the kilometre's.
@Suite("Split positions on SampleTracks")
struct SplitPositionTests {
    static let folder = TelemetrySampleTrackTests.folder
    static let present = TelemetrySampleTrackTests.present

    /// Sentences a receiver without Doppler speed does not send (a GGA-only copy of a track).
    static let dopplerSentences = ["RMC", "VTG", "GSA", "GSV", "GST"]

    /// The worst, over the truth's km splits, of |true distance when announced − the split's
    /// true distance|, metres; infinite when a split was never announced.
    static func worstSplitPosition(_ name: String, ggaOnly: Bool, settings: TelemetrySettings = TelemetrySettings()) throws -> Double {
        let data = try Data(contentsOf: folder.appendingPathComponent(name + ".truth.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let truthSplits = (json["splits_km"] as? [[String: Any]] ?? []).compactMap { $0["elapsed_s"] as? Double }
        let speeds = (json["speed_1hz_mps"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
        let duration = try #require(json["duration_s"] as? Double)
        try #require(!truthSplits.isEmpty && speeds.count > 1)
        var trueDistance = [0.0]
        for i in speeds.indices.dropFirst() { trueDistance.append(trueDistance[i - 1] + (speeds[i - 1] + speeds[i]) / 2) }
        func truth(at t: Double) -> Double {
            let i = max(0, min(trueDistance.count - 2, Int(t)))
            return trueDistance[i] + (trueDistance[i + 1] - trueDistance[i]) * max(0, min(1, t - Double(i)))
        }
        let text = try String(contentsOf: folder.appendingPathComponent(name + ".nmea"), encoding: .utf8)
        var decoder = NMEADecoder()
        var fixes: [Fix] = []
        for line in text.split(whereSeparator: \.isNewline) {
            if ggaOnly, line.hasPrefix("$"), line.count > 6, dopplerSentences.contains(String(line.dropFirst(3).prefix(3))) { continue }
            fixes += decoder.feed(line: line).fixes
        }
        fixes += decoder.finish()
        var telemetry = Telemetry(settings: settings)
        var announced: [Double] = []
        let origin = try #require(fixes.first).time
        for fix in fixes {
            let t = Double(fix.time.milliseconds - origin.milliseconds) / 1000
            guard t <= duration else { break }
            let distance = telemetry.ingest(fix).distanceMetres
            while Double(announced.count + 1) * 1000 <= distance { announced.append(t) }
        }
        guard announced.count >= truthSplits.count else { return .infinity }
        return zip(announced, truthSplits).map { abs(truth(at: $0) - truth(at: $1)) }.max() ?? 0
    }

    /// The settings of the telemetry before the speed changes without Doppler (issue 30): the
    /// filtered speed integrated as it is.
    static var filteredOnly: TelemetrySettings {
        var settings = TelemetrySettings()
        settings.positionProgressWithoutDoppler = 0
        return settings
    }

    @Test("with Doppler the live distance is the filtered speed's, fix for fix",
          .enabled(if: present, "SampleTracks/ is not beside Tests/"),
          arguments: ["track-loop", "city-stopgo", "trail-10hz"])
    func dopplerUnchanged(name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(name + ".nmea"), encoding: .utf8)
        var decoder = NMEADecoder()
        var fixes: [Fix] = []
        for line in text.split(whereSeparator: \.isNewline) { fixes += decoder.feed(line: line).fixes }
        fixes += decoder.finish()
        var now = Telemetry(), before = Telemetry(settings: Self.filteredOnly)
        var differing = 0
        for fix in fixes {
            let a = now.ingest(fix).distanceMetres, b = before.ingest(fix).distanceMetres
            if a != b { differing += 1 }
        }
        #expect(differing == 0, "\(name): \(differing) fixes with another distance")
    }

    /// Issue 30's goals are ≤ 2 m under open sky and ≤ 10 m everywhere. Pinned here is what the
    /// telemetry does now. Without Doppler (GGA only) the distance is the filtered position's
    /// progress along the way (`Telemetry.progress`), not the filtered speed's integral, which
    /// lagged every run↔walk change: track-loop 7.1 → 2.0 m. The GGA-only trail (18.3 → 19.3 m)
    /// and city (23.4 → 24.8 m) stay far from 10 m on these files: their error is the position
    /// error's own wander, not a lag (on re-seeded copies their medians went down a little; see
    /// notes/issue-30.md). With Doppler nothing changed. Since the position-step guard (a fix
    /// the motion cannot explain is held, a step the next fix confirms is not counted), the
    /// GGA-only urban canyon reads +1.1 % where it read +9.8 % (split 428 → 79 m); the GGA-only
    /// city's outliers no longer count as motion either, which had hidden part of its shortfall
    /// at the corners (24.8 → 28.6 m).
    @Test("a km split is announced within its bound of where it truly is",
          .enabled(if: present, "SampleTracks/ is not beside Tests/"),
          arguments: [
              ("track-loop", false, 4.0),
              ("trail-10hz", false, 1.5),
              ("city-stopgo", false, 6.0),
              ("track-loop-gga", false, 3.0),
              ("track-loop", true, 3.0),
              ("trail-10hz", true, 20.0),
              ("city-stopgo", true, 29.0),
              ("urban-canyon", false, 63.0),
              ("urban-canyon", true, 80.0),
          ])
    func splitPosition(name: String, ggaOnly: Bool, boundMetres: Double) throws {
        let worst = try Self.worstSplitPosition(name, ggaOnly: ggaOnly)
        #expect(worst <= boundMetres, "\(name)\(ggaOnly ? " (GGA only)" : ""): a split announced \(worst) m from its place")
    }
}
