import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkGPS
import RunWalkRuntime
import Testing
@testable import RunWalkTracks

/// Small GPX and TCX documents for the tests: a runner heading north at 3 m/s, one point a second.
enum TrackText {
    static let start = UTCTime(year: 2026, month: 4, day: 12, secondsOfDayMilli: 6 * 3_600_000 + 30 * 60_000)

    static func time(_ t: Int, zone: String = "Z") -> String {
        let iso = UTCTime(milliseconds: start.milliseconds + Int64(t) * 1000).iso8601(fractionDigits: 0)
        return String(iso.dropLast()) + zone
    }

    static func latitude(_ t: Int, offsetMetres: Double = 0) -> Double { 47.37 + (3 * Double(t) + offsetMetres) / 111_195 }

    /// `<trkpt>` lines for seconds `range`; `speed` writes a Garmin extension speed.
    static func points(_ range: ClosedRange<Int>, offsetMetres: Double = 0, zone: String = "Z", speed: Double? = nil) -> String {
        range.map { t in
            var line = "<trkpt lat=\"\(latitude(t, offsetMetres: offsetMetres))\" lon=\"8.54\"><ele>410</ele><time>\(time(t, zone: zone))</time>"
            if let speed {
                line += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>\(speed)</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>"
            }
            return line + "</trkpt>\n"
        }.joined()
    }

    static func gpx(_ body: String) -> [UInt8] {
        Array(("""
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
        """ + "\n" + body + "</gpx>\n").utf8)
    }
}

@Suite("GPX and TCX reading")
struct GPXTCXReadingTests {
    @Test("untimed waypoints, route and track beside a timed track: the timed track is read, each part skipped with one counted warning")
    func unusablePartsSkipped() throws {
        let body = """
        <wpt lat="47.37" lon="8.54"><name>Start</name></wpt>
        <wpt lat="47.38" lon="8.54"><name>End</name></wpt>
        <rte><rtept lat="47.37" lon="8.54"/><rtept lat="47.38" lon="8.54"/><rtept lat="47.39" lon="8.54"/></rte>
        <trk><name>planned</name><trkseg><trkpt lat="47.37" lon="8.54"/><trkpt lat="47.371" lon="8.54"/></trkseg></trk>
        <trk><name>run</name><trkseg>
        \(TrackText.points(0...59))</trkseg></trk>

        """
        let read = try TrackFiles.read(TrackText.gpx(body), name: "mixed.gpx")
        #expect(read.fixes.count == 60)
        #expect(read.fixes.first?.time == TrackText.start)
        #expect(read.fixes.allSatisfy { !$0.startsSegment })
        #expect(read.warnings.count == 4, "\(read.warnings)")
        #expect(read.warnings.contains { $0.contains("2 waypoints (<wpt>) skipped") && $0.contains("line 3") })
        #expect(read.warnings.contains { $0.contains("3 route points skipped: no <time>") })
        #expect(read.warnings.contains { $0.contains("2 track points skipped: no <time>") && $0.contains("line 6") })
        #expect(read.warnings.contains { $0.contains("the file has 2 tracks; read track(s) 2 in file order") })
    }

    @Test("times without a zone are read as UTC, said once with the count")
    func zonelessTimes() throws {
        let read = try TrackFiles.read(TrackText.gpx("<trk><trkseg>\n" + TrackText.points(0...29, zone: "") + "</trkseg></trk>\n"), name: "local.gpx")
        #expect(read.fixes.count == 30)
        #expect(read.fixes.first?.time == TrackText.start)
        #expect(read.warnings.count == 1)
        #expect(read.warnings.first?.hasSuffix("local.gpx: 30 times without a zone read as UTC (first at line 4)") == true, "\(read.warnings)")
    }

    @Test("out-of-range coordinates (an app's lat=100 pause markers) are skipped and break the segment")
    func pauseMarkers() throws {
        let body = "<trk><trkseg>\n" + TrackText.points(0...29)
            + "<trkpt lat=\"100\" lon=\"200\"><time>\(TrackText.time(30))</time></trkpt>\n"
            + "<trkpt lat=\"100\" lon=\"200\"><time>\(TrackText.time(90))</time></trkpt>\n"
            + TrackText.points(91...120) + "</trkseg></trk>\n"
        let read = try TrackFiles.read(TrackText.gpx(body), name: "paused.gpx")
        #expect(read.fixes.count == 60)
        #expect(read.fixes.filter(\.startsSegment).map(\.time) == [UTCTime(milliseconds: TrackText.start.milliseconds + 91_000)])
        #expect(read.warnings.count == 1)
        #expect(read.warnings.first?.contains("2 track points skipped: coordinates out of range") == true, "\(read.warnings)")
    }

    @Test("a segment RunWalk's export began at a lost signal (runwalk:gpsLostBefore) continues the one before; an unmarked one or a new track breaks")
    func lostSignalMark() throws {
        let marked = "<trkpt lat=\"\(TrackText.latitude(60))\" lon=\"8.54\"><time>\(TrackText.time(60))</time>"
            + "<extensions><runwalk:gpsLostBefore>true</runwalk:gpsLostBefore></extensions></trkpt>\n"
        let bridged = try TrackFiles.read(TrackText.gpx("<trk><trkseg>\n" + TrackText.points(0...29) + "</trkseg><trkseg>\n"
            + marked + TrackText.points(61...90) + "</trkseg></trk>\n"), name: "lost.gpx")
        #expect(bridged.fixes.count == 61)
        #expect(bridged.fixes.filter(\.startsSegment).isEmpty, "the marked gap is not a break")
        let unmarked = try TrackFiles.read(TrackText.gpx("<trk><trkseg>\n" + TrackText.points(0...29) + "</trkseg><trkseg>\n"
            + TrackText.points(60...90) + "</trkseg></trk>\n"), name: "segments.gpx")
        #expect(unmarked.fixes.filter(\.startsSegment).map(\.time) == [UTCTime(milliseconds: TrackText.start.milliseconds + 60_000)])
        let newTrack = try TrackFiles.read(TrackText.gpx("<trk><trkseg>\n" + TrackText.points(0...29) + "</trkseg></trk><trk><trkseg>\n"
            + marked + "</trkseg></trk>\n"), name: "tracks.gpx")
        #expect(newTrack.fixes.filter(\.startsSegment).count == 1, "a mark does not join two tracks")
    }

    static func twoTracks() -> [UInt8] {
        TrackText.gpx("<trk><trkseg>\n" + TrackText.points(0...119) + "</trkseg></trk>\n"
            + "<trk><trkseg>\n" + TrackText.points(180...299, offsetMetres: 600) + "</trkseg></trk>\n")
    }

    @Test("several tracks: all by default, each a new segment, and said which; --track N reads one; a track that is not there is an error")
    func severalTracks() throws {
        let all = try TrackFiles.read(Self.twoTracks(), name: "two.gpx")
        #expect(all.fixes.count == 240)
        #expect(all.fixes.filter(\.startsSegment).count == 1)
        #expect(all.fixes[120].startsSegment)
        #expect(all.warnings.contains { $0.contains("the file has 2 tracks; read track(s) 1, 2 in file order, each a new segment") })
        let second = try TrackFiles.read(Self.twoTracks(), name: "two.gpx", track: 2)
        #expect(second.fixes.count == 120)
        #expect(second.fixes.first?.time == UTCTime(milliseconds: TrackText.start.milliseconds + 180_000))
        #expect(second.warnings.isEmpty, "\(second.warnings)")
        let error = try #require(throws: TrackFileError.self) { try TrackFiles.read(Self.twoTracks(), name: "two.gpx", track: 3) }
        #expect(error.message == "--track 3, but the file has 2 track(s)")
    }

    @Test("replaying two tracks 600 m apart adds no distance between them (it was bridged: +218 % on a real file)")
    func replayDoesNotBridgeTracks() async throws {
        let folder = try TrackFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("two.gpx")
        try Data(Self.twoTracks()).write(to: file)
        let distance = await SessionLoop.replaying(try Workout(parsing: "10m run")).replay(track: file.path).summary.distanceMetres
        // Two stretches of 119 s at 3 m/s.
        #expect(abs(distance - 714) < 20, "\(distance) m")
    }

    @Test("a replay that ends before the file does still warns about what it skipped so far")
    func warningsWhenStoppedEarly() async throws {
        let folder = try TrackFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("long.gpx")
        try Data(TrackText.gpx("<wpt lat=\"47.37\" lon=\"8.54\"/>\n<trk><trkseg>\n" + TrackText.points(0...1199) + "</trkseg></trk>\n")).write(to: file)
        let lines = TrackFiles.Lines()
        let result = await SessionLoop.replaying(try Workout(parsing: "1m run"))
            .replay(track: file.path, hooks: .init(onMessage: { lines.append($0) }))
        #expect(result.summary.state == .completed)
        #expect(lines.all == ["warning: \(file.path): 1 waypoints (<wpt>) skipped: they are not part of a track (first at line 3)"])
    }

    @Test("a file's speed is used where it agrees with the positions and dropped, with a warning, where it does not",
          arguments: [(3.0, true), (2.64, false)])
    func speedAgreement(speed: Double, kept: Bool) throws {
        let read = try TrackFiles.read(TrackText.gpx("<trk><trkseg>\n" + TrackText.points(0...299, speed: speed) + "</trkseg></trk>\n"), name: "speed.gpx")
        #expect(read.fixes.count == 300)
        #expect(read.fixes.allSatisfy { $0.speedMetresPerSecond == (kept ? speed : nil) })
        #expect(read.warnings.isEmpty == kept, "\(read.warnings)")
        if !kept { #expect(read.warnings.first?.contains("<speed> of 300 points dropped") == true, "\(read.warnings)") }
    }

    @Test("a cycling track (14 m/s): every position kept, the speed flagged once with the count")
    func cyclingTrack() throws {
        let points = (0...119).map { t in
            "<trkpt lat=\"\(47.37 + 14 * Double(t) / 111_195)\" lon=\"8.54\"><time>\(TrackText.time(t))</time><speed>14</speed></trkpt>\n"
        }.joined()
        let read = try TrackFiles.read(TrackText.gpx("<trk><trkseg>\n" + points + "</trkseg></trk>\n"), name: "bike.gpx")
        #expect(read.fixes.count == 120)
        #expect(read.warnings.count == 1)
        #expect(read.warnings.first?.contains("120 points faster than 12 m/s (a bike, a vehicle?): their positions are used") == true, "\(read.warnings)")
    }

    @Test("malformed XML: one error naming the line")
    func malformed() throws {
        let body = "<trk><trkseg>\n" + TrackText.points(0...4) + "<trkpt lat=\"47.4\" lon=\"8.5\"><time>\(TrackText.time(5))</time></trkseg>\n</trk>\n"
        let error = try #require(throws: TrackFileError.self) { try TrackFiles.read(TrackText.gpx(body), name: "broken.gpx") }
        #expect(error.place == "line 9")
        #expect(error.message == "</trkseg> closes <trkpt>")
    }

    @Test("a large file streams across chunk boundaries, plain and gzip, with comments and CDATA, under any name")
    func largeFileStreams() throws {
        let body = "<metadata><name><![CDATA[Morning <run> & more]]></name></metadata>\n<!-- a comment < with > markup -->\n<trk><trkseg>\n"
            + TrackText.points(0...19_999) + "</trkseg></trk>\n"
        let bytes = TrackText.gpx(body)
        #expect(bytes.count > 1_500_000)
        for (data, name) in [(bytes, "large.fit"), (try TrackFiles.gzip(bytes), "large.gpx.gz")] {
            let read = try TrackFiles.read(data, name: name)
            #expect(read.format == .gpx)
            #expect(read.compressed == (name.hasSuffix(".gz")))
            #expect(read.fixes.count == 20_000)
            #expect(read.fixes.last?.time == UTCTime(milliseconds: TrackText.start.milliseconds + 19_999_000))
            #expect(abs((read.fixes.last?.latitude ?? 0) - TrackText.latitude(19_999)) < 1e-9)
            #expect(read.warnings.isEmpty, "\(read.warnings)")
        }
    }

    @Test("the 64 KB chunk boundary falls at every byte of a point, a comment, CDATA, an entity and a closing tag: the same fixes each time")
    func everyChunkBoundary() throws {
        let tail = "<trk><name>A &amp; B<![CDATA[ <x> ]]></name><!-- c --><trkseg>\n" + TrackText.points(0...2) + "</trkseg></trk>\n"
        let reference = try TrackFiles.read(TrackText.gpx(tail), name: "ref.gpx").fixes
        try #require(reference.count == 3)
        let head = TrackText.gpx("").count - "</gpx>\n".count
        for shift in stride(from: 0, through: tail.utf8.count, by: 3) {
            // A comment that pushes the tail so the first chunk ends `shift` bytes into it.
            let padding = "<!--" + String(repeating: "x", count: 65_536 - head - 8 - shift) + "-->\n"
            let read = try TrackFiles.read(TrackText.gpx(padding + tail), name: "shifted.gpx")
            #expect(read.fixes == reference, "boundary \(shift) bytes into the track")
            #expect(read.warnings.isEmpty, "\(read.warnings)")
        }
    }

    @Test("TCX: trackpoints with time and position, a position-less one (a pause) breaks the segment, DistanceMeters ignored, the TPX speed kept when it agrees")
    func tcx() throws {
        func point(_ t: Int, position: Bool = true) -> String {
            var text = "<Trackpoint><Time>\(TrackText.time(t))</Time>"
            if position {
                text += "<Position><LatitudeDegrees>\(TrackText.latitude(t))</LatitudeDegrees><LongitudeDegrees>8.54</LongitudeDegrees></Position>"
            }
            text += "<AltitudeMeters>410.5</AltitudeMeters><DistanceMeters>\(t * 10)</DistanceMeters>"
            return text + "<Extensions><ns3:TPX><ns3:Speed>3.0</ns3:Speed></ns3:TPX></Extensions></Trackpoint>\n"
        }
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
        <Activities><Activity Sport="Running"><Id>\(TrackText.time(0))</Id>
        <Lap StartTime="\(TrackText.time(0))"><Track>
        \((0...59).map { point($0) }.joined())</Track></Lap>
        <Lap StartTime="\(TrackText.time(60))"><Track>
        \((60...89).map { point($0) }.joined())\(point(90, position: false))\((150...209).map { point($0) }.joined())</Track></Lap>
        </Activity></Activities></TrainingCenterDatabase>

        """
        let read = try TrackFiles.read(Array(text.utf8), name: "run.xml")
        #expect(read.format == .tcx)
        #expect(read.fixes.count == 150)
        #expect(read.fixes.filter(\.startsSegment).map(\.time) == [UTCTime(milliseconds: TrackText.start.milliseconds + 150_000)])
        #expect(read.fixes.allSatisfy { $0.speedMetresPerSecond == 3 && $0.altitudeMSL == 410.5 })
        #expect(read.warnings.count == 1)
        #expect(read.warnings.first?.contains("1 trackpoints without a <Position> skipped") == true, "\(read.warnings)")
    }
}
