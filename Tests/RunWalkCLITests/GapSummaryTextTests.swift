import Foundation
import Testing

/// The text summary names each GPS gap: at the end of a replay (the rule it was bridged by) and
/// in `runwalk report` (with the distance counted across it, from the recorded track).
@Suite("text summary: GPS gaps (end to end)")
struct GapSummaryTextTests {
    @Test("the city track's four dropouts, each a line with when, how long, why and the distance across it")
    func cityGaps() async throws {
        let folder = try TemporaryDataFolder("runwalk-gap-text")
        let replay = try await ExportImportCommandTests.runwalk(["replay", "SampleTracks/city-stopgo.nmea", "--workout",
                                                                 "10m warmup, 6x(3m run, 2m walk), 5m cooldown"], dataDir: folder.url)
        try #require(replay.status == 0, "\(replay.stderr)")
        let atEnd = replay.stdout.split(separator: "\n").filter { $0.hasPrefix("GPS gap") }
        #expect(atEnd.count == 4, "\(replay.stdout)")
        #expect(atEnd.first == "GPS gap   8:35–8:53 (0:18, signal lost): bridged from the speeds before and after, at least the straight line between its ends")
        let report = try await ExportImportCommandTests.runwalk(["report", "last"], dataDir: folder.url)
        try #require(report.status == 0, "\(report.stderr)")
        let lines = report.stdout.split(separator: "\n").filter { $0.hasPrefix("GPS gap") }.map(String.init)
        #expect(lines.map { $0.components(separatedBy: "): ").first ?? "" }
                == ["GPS gap   8:35–8:53 (0:18, signal lost", "GPS gap   19:06–19:21 (0:15, signal lost",
                    "GPS gap   23:39–23:52 (0:13, signal lost", "GPS gap   34:15–34:24 (0:09, signal lost"], "\(lines)")
        #expect(lines.allSatisfy { $0.range(of: #": \d+ m counted"#, options: .regularExpression) != nil }, "\(lines)")
    }

    @Test("a track without dropouts has no gap lines")
    func noGaps() throws {
        let result = try RunWalkBinary.run(["replay", "SampleTracks/demo-short.nmea", "--workout", "4m run", "--no-record"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("GPS gap"))
    }
}
