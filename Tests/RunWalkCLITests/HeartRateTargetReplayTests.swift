import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkTestSupport
import Testing

/// Issues 32 and 33 together: a watch's track with heart rate drives `until hr` phases in a
/// replay exactly as a live strap would, and a heart-rate band is measured by it.
@Suite("runwalk replay: heart rate from the track drives 'until hr' and heart-rate bands (end to end)")
struct HeartRateTargetReplayTests {
    /// The heart rate of the synthetic watch track at second `t`: up 1 bpm a second from 100 to 169,
    /// down from 170 to 101, then up again from 100.
    static func heartRate(at t: Int) -> Int {
        switch t {
        case ..<70: 100 + t
        case ..<140: 170 - (t - 70)
        default: 100 + (t - 140)
        }
    }

    /// A GPX 1.1 track of `seconds` points at 1 Hz, 3 m a second northwards, with Garmin's
    /// TrackPointExtension v2 heart rate on every point.
    static func watchTrack(in folder: URL, seconds: Int) throws -> URL {
        var points = ""
        for t in 0..<seconds {
            let time = UTCTime(milliseconds: 1_776_000_000_000 + Int64(t) * 1000).iso8601(fractionDigits: 0)
            points += "<trkpt lat=\"\(47.37 + 3 * Double(t) / 111_195)\" lon=\"8.54\"><time>\(time)</time><extensions>"
                + "<ns3:TrackPointExtension><ns3:hr>\(heartRate(at: t))</ns3:hr></ns3:TrackPointExtension></extensions></trkpt>\n"
        }
        let gpx = folder.appendingPathComponent("watch.gpx")
        try ("<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"watch\" xmlns=\"http://www.topografix.com/GPX/1/1\" "
             + "xmlns:ns3=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\"><trk><trkseg>\n\(points)</trkseg></trk></gpx>\n")
            .write(to: gpx, atomically: true, encoding: .utf8)
        return gpx
    }

    static func replay(_ track: URL, _ workout: String) throws -> (RunWalkBinary.Output, Summary?) {
        let result = try RunWalkBinary.run(["replay", track.path, "--workout", workout, "--voice", "off", "--json", "--no-record"])
        return (result, try? SummaryJSON.decode(result.stdout))
    }

    @Test("each 'until hr' phase ends within 2 s of the sample where the heart rate reaches its threshold")
    func untilHeartRateEndsOnTheSample() throws {
        let folder = try PrivateEnvironment("rwhrt")
        defer { folder.remove() }
        let track = try Self.watchTrack(in: folder.root, seconds: 240)
        // No `max` anywhere: the track's heart rate is the source, so the workout is accepted.
        let (result, decoded) = try Self.replay(track, "run until hr 150, walk until hr 120, run until hr 160")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(decoded, "no summary: \(result.stderr)")
        let phases = summary.phases
        try #require(phases.count == 3, "\(phases.map(\.durationSeconds))")
        // The samples where each threshold is reached: 150 rising at 50 s, 120 falling at 120 s,
        // 160 rising at 200 s.
        let reached = [50.0, 120.0, 200.0]
        for (phase, at) in zip(phases, reached) {
            let end = phase.startSeconds + phase.durationSeconds
            #expect(end >= at && end <= at + 2, "phase \(phase.index + 1) (\(phase.kind)) ended at \(end) s, the threshold came at \(at) s")
            #expect(phase.endReason == .completed, "\(phase.endReason)")
        }
        #expect(summary.state == .completed)
        // The same replay again gives the same phases: heart rate from a file is reproducible.
        let (_, again) = try Self.replay(track, "run until hr 150, walk until hr 120, run until hr 160")
        #expect(again?.phases.map(\.durationSeconds) == phases.map(\.durationSeconds))
    }

    @Test("a heart-rate band is measured by the track's heart rate: time in, below and above add up to the phase")
    func heartRateBandFromTheTrack() throws {
        let folder = try PrivateEnvironment("rwhrt")
        defer { folder.remove() }
        let track = try Self.watchTrack(in: folder.root, seconds: 240)
        let (result, decoded) = try Self.replay(track, "run 3m @ hr 130-150")
        #expect(result.status == 0, "\(result.stderr)")
        let phase = try #require(decoded?.phases.first, "no summary: \(result.stderr)")
        let below = try #require(phase.timeBelowSeconds), inside = try #require(phase.timeInTargetSeconds)
        let above = try #require(phase.timeAboveSeconds)
        #expect(abs(below + inside + above - phase.durationSeconds) < 0.001)
        // 100-129 bpm for the first 30 s, 130-150 from 30 s to 50 s, over 150 from 51 s to 89 s,
        // in the band again from 90 s to 110 s, below from 111 s to 169 s, and in from 170 s (up
        // from 100 at 140 s) to the phase's end at 180 s: each within 3 s.
        #expect(abs(inside - 52) <= 3, "in \(inside) s")
        #expect(abs(above - 39) <= 3, "above \(above) s")
        #expect(abs(below - 89) <= 3, "below \(below) s")
    }
}
