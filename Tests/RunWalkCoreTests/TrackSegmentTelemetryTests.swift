import Testing
@testable import RunWalkCore

@Suite("Telemetry: track segments, fast tracks, position spikes")
struct TrackSegmentTelemetryTests {
    /// Two 300 s stretches of the same run with a 120 s hole between them, the second moved
    /// 600 m away (a file with two tracks, or a paused recording that resumed elsewhere).
    static func twoStretches(marked: Bool) -> (fixes: [Fix], truth: Double) {
        var track = TestTrack()
        track.seconds = 720
        track.radiusMetres = 5000
        track.dropout = (300, 420)
        var fixes = track.fixes()
        var truth = 0.0
        for (i, fix) in fixes.enumerated() {
            let t = Double(fix.time.milliseconds - fixes[0].time.milliseconds) / 1000
            guard t >= 420 else { continue }
            // The second stretch lies 600 m north of where the runner would be.
            fixes[i].latitude = (fix.latitude ?? 0) + 600 / 111_195
            if marked, t == 420 { fixes[i].startsSegment = true }
        }
        truth = track.trueDistance(to: 300) + (track.trueDistance(to: 720) - track.trueDistance(to: 420))
        return (fixes, truth)
    }

    @Test("a fix that starts a segment is not bridged: the gap adds no distance, live or smoothed")
    func segmentBreakAddsNothing() throws {
        let (marked, truth) = Self.twoStretches(marked: true)
        var telemetry = Telemetry()
        for fix in marked { _ = telemetry.ingest(fix) }
        #expect(abs(telemetry.distanceMetres / truth - 1) < 0.01, "live \(telemetry.distanceMetres) m, truth \(truth) m")
        let first = try #require(marked.first), last = try #require(marked.last)
        let smoothed = try #require(telemetry.smoothedDistanceMetres(from: first.time, to: last.time))
        #expect(abs(smoothed / truth - 1) < 0.01, "smoothed \(smoothed) m, truth \(truth) m")
        // The same fixes without the mark are a GPS gap, bridged by at least the 600 m chord.
        let (unmarked, _) = Self.twoStretches(marked: false)
        #expect(TestTrack.distance(of: unmarked) > truth + 500)
    }

    @Test("a cycling track at 14 m/s keeps its positions: the distance follows them though the speed is above the runner's limit",
          arguments: [true, false])
    func cyclingSpeed(doppler: Bool) {
        var track = TestTrack()
        track.doppler = doppler
        track.speed = { _ in 14 }
        track.radiusMetres = 3000
        let fixes = track.fixes()
        var telemetry = Telemetry()
        var accepted = 0
        for fix in fixes where telemetry.ingest(fix).accepted { accepted += 1 }
        let truth = track.trueDistance(to: track.seconds)
        #expect(accepted >= fixes.count - 2, "\(fixes.count - accepted) positions dropped")
        #expect(abs(telemetry.distanceMetres / truth - 1) < 0.02, "\(telemetry.distanceMetres) m, truth \(truth) m")
    }

    @Test("a single 2 km position spike changes neither the live nor the smoothed distance by more than 1 %",
          arguments: [(true, 300), (false, 300), (true, 0), (true, 2), (false, 2), (true, 598)])
    func kilometreSpike(doppler: Bool, at second: Int) throws {
        var track = TestTrack()
        track.doppler = doppler
        let clean = TestTrack.distance(of: track.fixes())
        track.outliers = [second: (2000, 0)]
        let fixes = track.fixes()
        var telemetry = Telemetry()
        for fix in fixes { _ = telemetry.ingest(fix) }
        #expect(abs(telemetry.distanceMetres / clean - 1) < 0.01, "live \(telemetry.distanceMetres) m, clean \(clean) m")
        let first = try #require(fixes.first), last = try #require(fixes.last)
        let smoothed = try #require(telemetry.smoothedDistanceMetres(from: first.time, to: last.time))
        #expect(abs(smoothed / clean - 1) < 0.01, "smoothed \(smoothed) m, clean \(clean) m")
    }
}
