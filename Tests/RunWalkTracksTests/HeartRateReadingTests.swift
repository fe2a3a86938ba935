import Foundation
import RunWalkCore
import RunWalkIO
import Testing
@testable import RunWalkTracks

/// Heart rate read from a watch's GPX, TCX and FIT files (issue 32).
@Suite("Heart rate in track files")
struct HeartRateReadingTests {
    /// `<trkpt>`s for seconds 0...4 with `hr(t)` in the extension `wrap` makes (nil: no hr).
    static func gpx(namespace: String, wrap: (String) -> String, hr: (Int) -> String?) -> [UInt8] {
        let points = (0...4).map { t in
            let ext = hr(t).map { "<extensions>\(wrap($0))</extensions>" } ?? ""
            return "<trkpt lat=\"\(TrackText.latitude(t))\" lon=\"8.54\"><ele>410</ele><time>\(TrackText.time(t))</time>\(ext)</trkpt>\n"
        }.joined()
        return Array(("""
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" \(namespace)>
        <trk><trkseg>
        """ + "\n" + points + "</trkseg></trk></gpx>\n").utf8)
    }

    @Test("GPX: Garmin TrackPointExtension v1 and v2 and GpxExtensions v3 hr", arguments: [
        ("xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\"", "gpxtpx:TrackPointExtension"),
        ("xmlns:ns3=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\"", "ns3:TrackPointExtension"),
        ("xmlns:gpxx=\"http://www.garmin.com/xmlschemas/GpxExtensions/v3\"", "gpxx:TrackPointExtension"),
    ])
    func gpxExtensions(namespace: String, element: String) throws {
        let prefix = element.split(separator: ":")[0]
        let bytes = Self.gpx(namespace: namespace, wrap: { "<\(element)><\(prefix):hr>\($0)</\(prefix):hr></\(element)>" },
                             hr: { String(140 + $0) })
        let read = try TrackFiles.read(bytes, name: "watch.gpx")
        #expect(read.fixes.map(\.heartRateBPM) == [140, 141, 142, 143, 144])
    }

    @Test("GPX: heart rate on some points only, and 0 and 255, are no heart rate (said once)")
    func gpxSomePoints() throws {
        let values: [Int: String] = [0: "150", 1: "0", 3: "255", 4: "151"]
        let bytes = Self.gpx(namespace: "xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\"",
                             wrap: { "<gpxtpx:TrackPointExtension><gpxtpx:hr>\($0)</gpxtpx:hr></gpxtpx:TrackPointExtension>" },
                             hr: { values[$0] })
        let read = try TrackFiles.read(bytes, name: "watch.gpx")
        #expect(read.fixes.map(\.heartRateBPM) == [150, nil, nil, nil, 151])
        #expect(read.warnings.contains { $0.contains("2 heart rate values of 0, 255 or out of range read as no heart rate") }, "\(read.warnings)")
    }

    @Test("TCX: HeartRateBpm/Value")
    func tcx() throws {
        let points = (0...3).map { t in
            let hr = t == 2 ? "" : "<HeartRateBpm><Value>\(130 + t)</Value></HeartRateBpm>"
            return """
            <Trackpoint><Time>\(TrackText.time(t))</Time><Position><LatitudeDegrees>\(TrackText.latitude(t))</LatitudeDegrees>\
            <LongitudeDegrees>8.54</LongitudeDegrees></Position><AltitudeMeters>410</AltitudeMeters>\(hr)</Trackpoint>
            """
        }.joined(separator: "\n")
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
        <Activities><Activity Sport="Running"><Id>\(TrackText.time(0))</Id><Lap StartTime="\(TrackText.time(0))">
        <Track>\(points)</Track></Lap></Activity></Activities></TrainingCenterDatabase>
        """
        let read = try TrackFiles.read(Array(text.utf8), name: "watch.tcx")
        #expect(read.fixes.map(\.heartRateBPM) == [130, 131, nil, 133])
    }

    @Test("FIT: record.heart_rate (field 3), 0xFF is none")
    func fit() throws {
        var fit = FITBuilder()
        fit.define(local: 0, global: 20, bigEndian: false, fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (3, 1, 0x02)])
        let start = UInt64(FITDecoderTests.start)
        for t in 0..<4 {
            fit.data(local: 0, [start + UInt64(t), FITBuilder.semicircles(FITDecoderTests.latitude(t)),
                                FITBuilder.semicircles(FITDecoderTests.longitude), t == 1 ? 0xFF : UInt64(120 + t)])
        }
        let read = try TrackFiles.read(fit.file(), name: "watch.fit")
        #expect(read.fixes.map(\.heartRateBPM) == [120, nil, 122, 123])
    }

    @Test("FIT: hrv.time RR intervals (÷1000 s, 0xFFFF none, either byte order) go with the next record that has a heart rate")
    func fitHRV() throws {
        var fit = FITBuilder()
        fit.define(local: 0, global: 20, bigEndian: false, fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (3, 1, 0x02)])
        fit.define(local: 1, global: 78, bigEndian: false, fields: [(0, 10, 0x84)])
        fit.define(local: 2, global: 78, bigEndian: true, fields: [(0, 6, 0x84)])
        let start = UInt64(FITDecoderTests.start)
        func record(_ t: Int, _ bpm: UInt64) {
            fit.data(local: 0, [start + UInt64(t), FITBuilder.semicircles(FITDecoderTests.latitude(t)),
                                FITBuilder.semicircles(FITDecoderTests.longitude), bpm])
        }
        record(0, 120)
        fit.data(local: 1, fieldBytes: [FITBuilder.uint16s([800, 810, 790, 0xFFFF, 0xFFFF], bigEndian: false)])
        record(1, 0xFF) // no heart rate: the beats wait for the next one
        fit.data(local: 2, fieldBytes: [FITBuilder.uint16s([820, 3000, 200], bigEndian: true)]) // 3 s and 0.2 s are no beats
        record(2, 122)
        record(3, 123)
        fit.data(local: 1, fieldBytes: [FITBuilder.uint16s([500, 505, 0xFFFF, 0xFFFF, 0xFFFF], bigEndian: false)])
        record(4, 124)
        let read = try TrackFiles.read(fit.file(), name: "watch.fit")
        #expect(read.fixes.map(\.heartRateBPM) == [120, nil, 122, 123, 124])
        #expect(read.fixes.map(\.heartRateRRSeconds) == [[], [], [0.8, 0.81, 0.79, 0.82], [], [0.5, 0.505]])
        #expect(read.warnings.contains { $0.contains("2 hrv RR intervals outside 0.25–2.5 s dropped") }, "\(read.warnings)")
    }

    @Test("a file's RR intervals reach the session's heart-rate sample, as a strap's do (and so the recorder's rr_s)")
    func rrThroughTheSession() throws {
        var runner = SessionRunner(workout: try Workout(parsing: "1m run"))
        var fix = Fix(time: UTCTime(milliseconds: FITBuilder.unixMilliseconds(FITDecoderTests.start)))
        fix.latitude = 47.37
        fix.longitude = 8.54
        fix.heartRateBPM = 122
        fix.heartRateRRSeconds = [0.8, 0.81]
        _ = runner.start(at: .zero, utc: fix.time)
        let events = runner.ingest(fix, at: .seconds(1))
        let samples = events.compactMap { if case .heartRate(let sample) = $0 { sample } else { nil } }
        #expect(samples.map(\.rrIntervalsSeconds) == [[0.8, 0.81]] && samples.allSatisfy(\.fromTrackFile))
        #expect(runner.heartRate.map(\.rrIntervalsSeconds) == [[0.8, 0.81]])
    }
}
