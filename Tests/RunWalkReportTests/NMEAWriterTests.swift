import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkReport
import Testing

@Suite("NMEAWriter")
struct NMEAWriterTests {
    @Test("sentences carry valid checksums and decode back to the same fixes")
    func decodesBack() async throws {
        func point(_ latitude: Double, _ longitude: Double, _ elevation: Double?, _ time: String) throws -> GPXTrack.Point {
            GPXTrack.Point(latitude: latitude, longitude: longitude, elevationMetres: elevation,
                           time: try #require(ISO8601Time.parseZoned(time)), speedMetresPerSecond: nil, hdop: nil)
        }
        // Across midnight, and a third point at the second one's time (dropped: no epoch goes backwards or repeats).
        let track = GPXTrack(name: nil, segments: [[
            try point(47.3766541, -8.5412398, 410.5, "2026-04-12T23:59:59.500Z"),
            try point(47.3766998, -8.5412001, 411.0, "2026-04-13T00:00:00.500Z"),
            try point(47.3767, -8.5412, nil, "2026-04-13T00:00:00.500Z"),
        ]])
        let output = NMEAWriter.render(track, source: "x.gpx")
        #expect(output.epochs == 2)
        #expect(output.droppedPoints == 1)
        var decoder = NMEADecoder()
        var fixes: [Fix] = []
        for line in output.text.split(separator: "\r\n") {
            fixes += decoder.feed(line: line).fixes
        }
        fixes += decoder.finish()
        #expect(decoder.statistics.linesBad == 0)
        try #require(fixes.count == 2)
        #expect(fixes[0].time.iso8601() == "2026-04-12T23:59:59.500Z")
        #expect(fixes[1].time.iso8601() == "2026-04-13T00:00:00.500Z")
        #expect(abs((fixes[0].latitude ?? 0) - 47.3766541) < 1e-7)
        #expect(abs((fixes[0].longitude ?? 0) + 8.5412398) < 1e-7)
        #expect(fixes[0].altitudeMSL == 410.5)
        let metres = Geodesy.distance(latitude1: 47.3766541, longitude1: -8.5412398, latitude2: 47.3766998, longitude2: -8.5412001)
        #expect(abs((fixes[0].speedMetresPerSecond ?? 0) - metres) < 0.01)
    }
}
