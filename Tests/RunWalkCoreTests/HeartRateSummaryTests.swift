import Foundation
import Testing
@testable import RunWalkCore

/// The summary's heart rate: `hr_avg`, `hr_max`, `hr_zones_s` at the top and in each phase.
@Suite("Heart rate in the summary")
struct HeartRateSummaryTests {
    /// 2 min walk at 110 bpm, 2 min run at 160, with heart rate on every fix but where `missing` says.
    func replay(missing: (Int) -> Bool = { _ in false }) throws -> SessionRunner {
        var track = TestTrack()
        track.seconds = 240
        var runner = SessionRunner(workout: try Workout(parsing: "2m walk, 2m run"))
        let fixes = track.fixes()
        let start = try #require(fixes.first).time
        _ = runner.start(at: .zero, utc: start)
        for (t, var fix) in fixes.enumerated() {
            if !missing(t) { fix.heartRateBPM = t < 120 ? 110 : 160 }
            _ = runner.ingest(fix, at: fix.time.since(start))
        }
        _ = runner.stop(at: .seconds(240))
        return runner
    }

    @Test("per phase and overall: average, maximum, seconds in zones")
    func perPhase() throws {
        let summary = try replay().summary(linesBad: 0)
        #expect(summary.heartRateAverage == 135 && summary.heartRateMax == 160)
        #expect(summary.heartRateZoneSeconds == [120, 0, 120, 0, 0])
        let walk = try #require(summary.phases.first), run = try #require(summary.phases.last)
        #expect(walk.heartRateAverage == 110 && walk.heartRateMax == 110 && walk.heartRateZoneSeconds == [120, 0, 0, 0, 0])
        #expect(run.heartRateAverage == 160 && run.heartRateMax == 160 && run.heartRateZoneSeconds == [0, 0, 120, 0, 0])
    }

    @Test("the JSON gains hr_avg, hr_max, hr_zones_s; without heart rate it has none of them")
    func json() throws {
        let with = try replay().summary(linesBad: 0)
        var encoded = String(decoding: try JSONEncoder().encode(with), as: UTF8.self)
        #expect(encoded.contains("\"hr_avg\"") && encoded.contains("\"hr_max\"") && encoded.contains("\"hr_zones_s\""))
        let without = try replay(missing: { _ in true }).summary(linesBad: 0)
        encoded = String(decoding: try JSONEncoder().encode(without), as: UTF8.self)
        #expect(!encoded.contains("hr_"))
        #expect(without.phases.allSatisfy { $0.heartRateAverage == nil })
    }

    @Test("a stretch without heart rate is no heart rate, never a 0 in the average")
    func gapIsNotZero() throws {
        // No heart rate from 150 s to 210 s of the run.
        let summary = try replay(missing: { (150..<210).contains($0) }).summary(linesBad: 0)
        let run = try #require(summary.phases.last)
        #expect(run.heartRateAverage == 160)
        let zones = try #require(run.heartRateZoneSeconds)
        #expect(zones.reduce(0, +) < 120 - 50)
    }

    @Test("the track points carry the heart rate; a live strap's sample is joined to the next fix")
    func trackPoints() throws {
        var runner = SessionRunner(workout: try Workout(parsing: "1m run"))
        let fixes = TestTrack().fixes()
        let start = try #require(fixes.first).time
        _ = runner.start(at: .zero, utc: start)
        _ = runner.ingestHeartRate(HeartRateSample(seconds: 0.5, bpm: 150))
        let events = runner.ingest(fixes[1], at: fixes[1].time.since(start))
        let point = events.compactMap { if case .trackPoint(let p) = $0 { p } else { nil } }.first
        #expect(point?.heartRateBPM == 150)
        #expect(runner.currentHeartRate(at: .seconds(3)) == 150)
        #expect(runner.currentHeartRate(at: .seconds(30)) == nil)
        // A sample older than the last is dropped (time order kept).
        #expect(runner.ingestHeartRate(HeartRateSample(seconds: 0.2, bpm: 90)).isEmpty)
    }

    @Test("a live strap: a loss and a return logged once each, measurements without heart rate add no sample")
    func liveStrap() throws {
        var runner = SessionRunner(workout: try Workout(parsing: "1m run"))
        _ = runner.start(at: .zero, utc: nil)
        _ = runner.heartRate(.connected, at: .seconds(0.1))
        _ = runner.heartRate(.measurement(HeartRateMeasurement(rawBPM: 150, contact: .detected)), at: .seconds(1))
        _ = runner.heartRate(.measurement(HeartRateMeasurement(rawBPM: 255, contact: .notDetected)), at: .seconds(2))
        _ = runner.heartRate(.measurement(HeartRateMeasurement(rawBPM: 0)), at: .seconds(3))
        _ = runner.heartRate(.lost(reason: "out of range"), at: .seconds(4))
        _ = runner.heartRate(.lost(reason: "out of range"), at: .seconds(5))
        _ = runner.heartRate(.measurement(HeartRateMeasurement(rawBPM: 152, contact: .detected)), at: .seconds(9))
        #expect(runner.heartRate.map(\.bpm) == [150, 152])
        #expect(runner.eventLog.filter { $0.kind == .heartRateLost }.map(\.atSeconds) == [4])
        #expect(runner.eventLog.filter { $0.kind == .heartRateBack }.map(\.atSeconds) == [9])
        #expect(!runner.heartRateStrapLost)
    }

    @Test("voice.hr: the split cue adds \"Heart rate 160.\"; off by default")
    func splitCue() throws {
        func splitTexts(saying: Bool) throws -> [String] {
            var track = TestTrack()
            track.seconds = 400
            var options = SessionOptions()
            options.saysHeartRateAtSplits = saying
            var runner = SessionRunner(workout: try Workout(parsing: "10m run"), options: options)
            let fixes = track.fixes()
            let start = try #require(fixes.first).time
            _ = runner.start(at: .zero, utc: start)
            for var fix in fixes {
                fix.heartRateBPM = 160
                _ = runner.ingest(fix, at: fix.time.since(start))
            }
            return runner.cues.filter { $0.kind == .split }.map(\.text)
        }
        let said = try splitTexts(saying: true)
        #expect(!said.isEmpty && said.allSatisfy { $0.hasSuffix(" Heart rate 160.") }, "\(said)")
        #expect(try splitTexts(saying: false).allSatisfy { !$0.contains("Heart rate") })
        #expect(GermanPhrases().heartRate(148) == "Puls 148.")
    }
}

