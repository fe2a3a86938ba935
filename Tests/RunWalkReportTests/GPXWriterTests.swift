import Foundation
import RunWalkCore
import RunWalkReport
import Testing

@Suite("GPXWriter")
struct GPXWriterTests {
    static let schema = SampleSession.schemasFolder.appendingPathComponent("gpx-1.1.xsd").path
    static let canValidate = Tool.find("xmllint") != nil && FileManager.default.fileExists(atPath: schema)

    @Test("sample tracks export as schema-valid GPX 1.1", .enabled(if: canValidate, "needs xmllint (scripts/test installs libxml2-utils)"),
          arguments: ["track-loop", "trail-10hz", "city-stopgo"])
    func validatesAgainstSchema(name: String) async throws {
        let session = try await SampleSession.named(name)
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(name).gpx")
        try await offPool { try GPXWriter.render(session).write(to: file, atomically: true, encoding: .utf8) }
        let result = try await Tool.run(try #require(Tool.find("xmllint")), ["--noout", "--schema", Self.schema, file.path])
        #expect(result.status == 0, "xmllint: \(result.stderr)")
        #expect(result.stderr.contains("validates"), "\(result.stderr)")
    }

    @Test("one point per track point, with time, elevation and speed")
    func pointsCarryTimeAndElevation() async throws {
        let session = try await SampleSession.named("trail-10hz")
        let first = try #require(session.track.first)
        let firstTime = "<time>\(first.time.iso8601(fractionDigits: first.time.milliseconds % 1000 == 0 ? 0 : 3))</time>"
        let counts = try await renderAndCount({ GPXWriter.render(session) }, ["<trkpt ", "<ele>", "<gpxtpx:speed>", firstTime])
        #expect(counts["<trkpt "] == session.track.count)
        #expect(counts["<ele>"] == session.track.filter { $0.altitudeMSL != nil }.count)
        #expect(counts["<gpxtpx:speed>"] == session.track.filter { $0.speedMetresPerSecond != nil }.count)
        #expect(counts[firstTime, default: 0] >= 1)
    }

    @Test("a new segment starts after every GPS gap")
    func segmentsSplitAtGaps() async throws {
        let session = try await SampleSession.named("city-stopgo")
        let gaps = session.track.filter(\.afterGap).count
        #expect(gaps >= 2, "the city track has two 17-20 s dropouts")
        let counts = try await renderAndCount({ GPXWriter.render(session) }, ["<trkseg>"])
        #expect(counts["<trkseg>"] == gaps + 1)
    }

    @Test("a track recorded every 5 s is one segment; a real gap (a minute without points) still starts a new one")
    func sparseTrackIsOneSegment() async throws {
        var session = try await SampleSession.named("track-loop")
        // Every fifth point, each more than the 5 s gap threshold after the one before, as a
        // watch in battery mode records; then a minute cut out.
        var sparse = session.track.enumerated().filter { $0.offset % 6 == 0 }.map(\.element)
        for i in sparse.indices.dropFirst() { sparse[i].afterGap = true }
        sparse.removeSubrange(100..<110)
        session.track = sparse
        let sparseSession = session
        let counts = try await renderAndCount({ GPXWriter.render(sparseSession) }, ["<trkseg>", "<trkpt "])
        #expect(counts["<trkpt "] == sparse.count)
        #expect(counts["<trkseg>"] == 2)
    }

    @Test("the workout name is escaped")
    func escapesUserText() async throws {
        var session = try await SampleSession.named("demo-short")
        session.summary.workout = "<b>\"fast\" & 'far'</b>"
        let gpx = GPXWriter.render(session)
        #expect(gpx.contains("<name>&lt;b&gt;&quot;fast&quot; &amp; &#39;far&#39;&lt;/b&gt;</name>"))
        #expect(!gpx.contains("<b>"))
    }
}
