import Foundation
import RunWalkCore
import RunWalkReport
import RunWalkRuntime
import Testing

/// The strap's beat-to-beat (RR) intervals leave in the FIT export's `hrv` messages and come back
/// on a replay of it, and the report shows their variability.
@Suite("Heart-rate variability in exports and the report")
struct HeartRateVariabilityExportTests {
    /// The heart-rate sample session with, at every point that has a heart rate, the intervals of
    /// its beats in that second (60/bpm each, wobbling by ±20 ms).
    static func session() async throws -> RecordedSession {
        var session = try await HeartRateExportTests.session()
        var beat = 0
        var samples: [HeartRateSample] = []
        var lastSecond = -1.0
        for point in session.track {
            guard let bpm = point.heartRateBPM, point.elapsedSeconds >= 0, point.elapsedSeconds.rounded(.down) > lastSecond else { continue }
            lastSecond = point.elapsedSeconds.rounded(.down)
            let count = bpm >= 150 ? 3 : 2
            let intervals = (0..<count).map { _ -> Double in
                beat += 1
                return ((60.0 / Double(bpm) + 0.02 * sin(Double(beat) * 0.7)) * 1000).rounded() / 1000
            }
            samples.append(HeartRateSample(seconds: point.elapsedSeconds, bpm: bpm, rrIntervalsSeconds: intervals))
        }
        session.heartRate = samples
        return session
    }

    static var allIntervals: (RecordedSession) -> [Double] { { $0.heartRate.flatMap(\.rrIntervalsSeconds) } }

    @Test("Garmin's FIT SDK reads every RR interval from hrv.time, in order, to the millisecond",
          .enabled(if: Tool.hasGarminFIT, "needs python3 with garmin-fit-sdk (scripts/test installs it)"))
    func garminReadsHRV() async throws {
        let session = try await Self.session()
        let bytes = try await offPool { FITActivityWriter.render(session) }
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hrv.fit")
        try Data(bytes).write(to: file)
        let script = """
        import json, sys
        from garmin_fit_sdk import Decoder, Stream
        messages, errors = Decoder(Stream.from_file(sys.argv[1])).read()
        times = [t for m in messages.get("hrv_mesgs", []) for t in (m.get("time") or []) if t is not None]
        print(json.dumps({"errors": [str(e) for e in errors], "rr": times, "records": len(messages["record_mesgs"])}))
        """
        let result = try await Tool.run(try #require(Tool.python), ["-c", script, file.path])
        try #require(result.status == 0, "python: \(result.stderr)")
        struct Decoded: Decodable { var errors: [String]; var rr: [Double]; var records: Int }
        let decoded = try JSONDecoder().decode(Decoded.self, from: Data(result.stdout.utf8))
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
        let expected = Self.allIntervals(session)
        #expect(expected.count > 3000)
        #expect(decoded.rr.count == expected.count)
        #expect(zip(decoded.rr, expected).allSatisfy { abs($0 - $1) < 0.0005 })
    }

    @Test("replay of the exported FIT gives back every RR interval, in order")
    func roundTrip() async throws {
        let original = try await Self.session()
        let spec = try #require(SampleSession.workouts["track-loop"])
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hrv.fit")
        try await SampleSession.export(original, as: "fit", to: file)
        let log = SessionEventLog()
        _ = await SessionLoop.replaying(try Workout(parsing: spec)).replay(track: file.path, hooks: log.hooks)
        let replayed = log.events.flatMap { event -> [Double] in
            if case .heartRate(let sample) = event { return sample.rrIntervalsSeconds } else { return [] }
        }
        let expected = Self.allIntervals(original)
        #expect(replayed.count == expected.count, "\(replayed.count) of \(expected.count)")
        #expect(zip(replayed, expected).allSatisfy { abs($0 - $1) < 0.0005 })
    }

    @Test("the report's heart-rate section shows the RMSSD of the intervals; nothing without them")
    func reportTile() async throws {
        var session = try await Self.session()
        session.summary.heartRateAverage = 145
        session.summary.heartRateMax = 170
        let withIntervals = session
        let figure = try #require(HeartRateVariability(samples: withIntervals.heartRate))
        let page = try await offPool { HTMLReport.render(withIntervals) }
        #expect(page.contains("Beat-to-beat variability"))
        #expect(page.contains(">\(Int(figure.rmssdMilliseconds.rounded())) <small>ms RMSSD, \(figure.intervals) beats</small>"))
        session.heartRate = session.heartRate.map { HeartRateSample(seconds: $0.seconds, bpm: $0.bpm) }
        let withoutIntervals = session
        let plain = try await offPool { HTMLReport.render(withoutIntervals) }
        #expect(plain.contains("<h2>Heart rate</h2>") && !plain.contains("Beat-to-beat"))
    }
}
