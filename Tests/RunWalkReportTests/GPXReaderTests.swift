import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkReport
import Testing

@Suite("GPXReader")
struct GPXReaderTests {
    @Test("reads segments, elevation, times with zones and fractions, and entities in the name")
    func readsTrack() async throws {
        let gpx = """
        <?xml version="1.0"?>
        <!-- exported by some watch -->
        <gpx:gpx version="1.1" xmlns:gpx="http://www.topografix.com/GPX/1/1">
          <gpx:trk><gpx:name>Morning &amp; &lt;run&gt; &#233;</gpx:name>
            <gpx:trkseg>
              <gpx:trkpt lat="47.1" lon="8.5"><gpx:ele>410.5</gpx:ele><gpx:time>2026-04-12T06:30:00Z</gpx:time></gpx:trkpt>
              <gpx:trkpt lon='8.5001' lat='47.1001'><gpx:time>2026-04-12T08:30:01.500+02:00</gpx:time><gpx:extensions><x:speed xmlns:x="u">3.2</x:speed></gpx:extensions></gpx:trkpt>
            </gpx:trkseg>
            <gpx:trkseg><gpx:trkpt lat="-47.2" lon="-8.6"><gpx:time>2026-04-12T06:31:00Z</gpx:time></gpx:trkpt></gpx:trkseg>
          </gpx:trk>
        </gpx:gpx>
        """
        let track = try GPXReader.parse(gpx)
        #expect(track.name == "Morning & <run> é")
        #expect(track.segments.map(\.count) == [2, 1])
        let points = track.points
        #expect(points[0].elevationMetres == 410.5)
        #expect(points[0].time.iso8601() == "2026-04-12T06:30:00.000Z")
        #expect(points[1].time.iso8601() == "2026-04-12T06:30:01.500Z")
        #expect(points[1].speedMetresPerSecond == 3.2)
        #expect(points[1].latitude == 47.1001)
        #expect(points[2].longitude == -8.6)
        #expect(points[2].line == 9)
    }

    @Test("bad input names the line and the cause", arguments: [
        ("<gpx><trk><trkseg><trkpt lat=\"47\" lon=\"8\"></trkpt></trkseg></trk></gpx>",
         "line 1: <trkpt> has no <time>; RunWalk replays a track by its own clock"),
        ("<gpx>\n<trk><trkseg>\n<trkpt lat=\"x\" lon=\"8\"><time>2026-04-12T06:30:00Z</time></trkpt></trkseg></trk></gpx>",
         "line 3: <trkpt> needs lat and lon attributes in degrees (got lat=\"x\" lon=\"8\")"),
        ("<gpx><trk><trkseg><trkpt lat=\"47\" lon=\"8\">\n<time>yesterday</time></trkpt></trkseg></trk></gpx>",
         "line 2: <time> is not an ISO 8601 date-time: \"yesterday\""),
        ("<kml></kml>", "line 1: the root element is <kml>, not <gpx>"),
        ("<gpx><trk></gpx>", "line 1: </gpx> closes <trk>"),
        ("<gpx><trk>", "the file ends inside <trk>"),
        ("<gpx></gpx>", "no track or route points"),
        ("<gpx>\n<!-- never closed", "line 2: unterminated markup (expected \"-->\")"),
    ])
    func errors(input: String, message: String) {
        #expect(throws: GPXImportError.self) { try GPXReader.parse(input) }
        do {
            _ = try GPXReader.parse(input)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a route is read when there is no track")
    func routeFallback() async throws {
        let track = try GPXReader.parse("<gpx><rte><rtept lat=\"1\" lon=\"2\"><time>2026-01-01T00:00:00Z</time></rtept></rte></gpx>")
        #expect(track.points.count == 1)
    }
}

@Suite("NMEAWriter")
struct NMEAWriterTests {
    @Test("sentences carry valid checksums and decode back to the same fixes")
    func decodesBack() async throws {
        let track = try GPXReader.parse("""
        <gpx><trk><trkseg>
        <trkpt lat="47.3766541" lon="-8.5412398"><ele>410.5</ele><time>2026-04-12T23:59:59.500Z</time></trkpt>
        <trkpt lat="47.3766998" lon="-8.5412001"><ele>411.0</ele><time>2026-04-13T00:00:00.500Z</time></trkpt>
        <trkpt lat="47.3767" lon="-8.5412"><time>2026-04-13T00:00:00.500Z</time></trkpt>
        </trkseg></trk></gpx>
        """)
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

@Suite("GPX round trip")
struct GPXRoundTripTests {
    // Not trail-10hz: its distance phases make the total equal by construction.
    @Test("exported GPX, imported and replayed, gives the same distance within 0.5 %",
          arguments: ["track-loop", "city-stopgo"])
    func sameDistance(name: String) async throws {
        let original = try await SampleSession.named(name)
        let spec = try #require(SampleSession.workouts[name])
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(name).nmea")
        // Export, parse and convert off the cooperative pool (a few hundred ms in a debug build).
        let points = try await offPool {
            let track = try GPXReader.parse(GPXWriter.render(original))
            try NMEAWriter.render(track, source: "\(name).gpx").text.write(to: file, atomically: true, encoding: .utf8)
            return track.points.count
        }
        #expect(points == original.track.count)
        let replayed = try await SampleSession.replay(path: file.path, workout: spec)
        let ratio = replayed.summary.distanceMetres / original.summary.distanceMetres
        #expect(abs(ratio - 1) < 0.005, "original \(original.summary.distanceMetres) m, replayed \(replayed.summary.distanceMetres) m")
        #expect(replayed.summary.phases.count == original.summary.phases.count)
    }
}
