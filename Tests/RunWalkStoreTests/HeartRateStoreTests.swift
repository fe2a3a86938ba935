import Foundation
import Testing
@testable import RunWalkStore
import RunWalkCore
import RunWalkIO
import RunWalkRuntime

/// Heart-rate samples recorded with their own time, loaded back onto the track, rebuilt into a
/// crashed session's summary, and averaged in the history (issue 32).
@Suite("Heart rate in the store")
struct HeartRateStoreTests {
    /// A watch's GPX: 150 s north at 3 m/s, 1 Hz, heart rate 120 + t/3 but none on seconds 60...64.
    static func watchTrack(in folder: URL) throws -> String {
        let start = 1_776_000_000_000 as Int64
        var points = ""
        for t in 0..<150 {
            let time = UTCTime(milliseconds: start + Int64(t) * 1000).iso8601(fractionDigits: 0)
            let hr = (60...64).contains(t) ? "" :
                "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(120 + t / 3)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>"
            points += "<trkpt lat=\"\(47.37 + 3 * Double(t) / 111_195)\" lon=\"8.54\"><ele>410</ele><time>\(time)</time>\(hr)</trkpt>\n"
        }
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
        <trk><trkseg>
        \(points)</trkseg></trk></gpx>
        """
        let path = folder.appendingPathComponent("watch.gpx").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func record(finish: Bool) async throws -> (TemporaryStoreFolder, SessionLoop.Result, SessionRecorder.Outcome) {
        let folder = try TemporaryStoreFolder()
        let track = try Self.watchTrack(in: folder.url)
        let workout = try Workout(parsing: "1m walk, 1m run")
        let loop = SessionLoop.replaying(workout)
        let recorder = SessionRecorder(location: folder.location, session: .init(workout: workout, options: loop.options, source: "replay:watch.gpx"),
                                       warn: { _ in })
        let log = SessionEventLog(also: { recorder.record($0) })
        let result = await loop.replay(track: track, hooks: log.hooks)
        let outcome = finish ? recorder.finish(summary: result.summary, summaryJSON: try SummaryJSON.encode(result.summary))
            : recorder.finishFromRecording(state: .incomplete)
        return (folder, result, outcome)
    }

    @Test("every sample is a row with its own time; the loaded track and the history carry it")
    func recorded() async throws {
        let (folder, result, outcome) = try await record(finish: true)
        let store = try RunWalkStore(location: folder.location)
        let id = try #require(outcome.sessionID)
        let samples = try store.heartRateSamples(sessionID: id)
        // The workout ends at 120 s: the points from 0 to 120 s, 5 of them without heart rate.
        #expect(samples.count == 116)
        #expect(samples.allSatisfy { $0.fromTrackFile })
        #expect(samples.first?.seconds == 0 && samples.first?.bpm == 120)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.seconds < $1.seconds })
        let session = try store.loadSession(.id(id))
        #expect(session.summary.heartRateAverage == result.summary.heartRateAverage)
        #expect(session.summary.phases.map(\.heartRateMax) == [139, 159])
        // A file's sample belongs to its own point: the points without one stay without.
        let withHeartRate = session.trackPoints.filter { $0.heartRateBPM != nil }
        #expect(withHeartRate.count == samples.count)
        #expect(session.trackPoints.filter { (60.0..<65.0).contains($0.elapsedSeconds) }.allSatisfy { $0.heartRateBPM == nil })
        let average = try #require(try store.sessions().first?.averageHeartRateBPM)
        #expect(abs(average - Double(samples.map(\.bpm).reduce(0, +)) / Double(samples.count)) < 1e-9)
    }

    @Test("a session closed from its rows (a crash) has its heart rate rebuilt")
    func rebuilt() async throws {
        let (folder, result, outcome) = try await record(finish: false)
        let store = try RunWalkStore(location: folder.location)
        let session = try store.loadSession(.id(try #require(outcome.sessionID)))
        #expect(session.summary.heartRateAverage == result.summary.heartRateAverage)
        #expect(session.summary.heartRateZoneSeconds == result.summary.heartRateZoneSeconds)
    }
}
