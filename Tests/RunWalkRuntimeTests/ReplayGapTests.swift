import Foundation
import Testing
import RunWalkCore
import RunWalkGPS
import RunWalkRuntime

/// Replay marks GPS gaps as a live run does: no position for `gpsLostAfterSeconds` is a gap.
@Suite("Replay GPS gaps")
struct ReplayGapTests {
    static let city = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleTracks/city-stopgo.nmea").path

    @Test("the city track's four dropouts (no-fix epochs and missing epochs) are gaps, announced once each")
    func cityDropouts() async throws {
        let workout = try Workout(parsing: "10m warmup, 6x(3m run, 2m walk), 5m cooldown")
        let result = await SessionLoop.replaying(workout).replay(track: Self.city)
        let gaps = try #require(result.summary.gpsGaps)
        // Last position before each dropout at 512, 1143, 1416, 2052 s: lost 3 s later; back at the next position.
        #expect(gaps.map(\.startSeconds) == [515, 1146, 1419, 2055])
        #expect(gaps.map(\.endSeconds) == [533, 1161, 1432, 2064])
        #expect(gaps.allSatisfy { $0.reason == .signalLost })
        let gpsCues = result.driver.runner.cues.filter { $0.kind == .gps }
        #expect(gpsCues.map(\.text) == Array(repeating: ["GPS signal lost.", "GPS back."], count: 4).flatMap { $0 })
        #expect(gpsCues.map(\.atSeconds) == [515, 533, 1146, 1161, 1419, 1432, 2055, 2064])
    }

    @Test("a track without dropouts has no gaps")
    func noGaps() async throws {
        let loop = Self.city.replacingOccurrences(of: "city-stopgo", with: "track-loop")
        let result = await SessionLoop.replaying(try Workout(parsing: "90s run, 60s walk")).replay(track: loop)
        #expect(result.summary.gpsGaps == nil)
        #expect(!result.driver.runner.cues.contains { $0.kind == .gps })
    }
}
