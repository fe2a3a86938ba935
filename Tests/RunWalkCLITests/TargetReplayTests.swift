import Foundation
import RunWalkCore
import Testing

/// Issue 33: a pace band coached on a sample track, end to end through `runwalk replay`.
@Suite("runwalk replay with targets (end to end)")
struct TargetReplayTests {
    /// The city track's own workout with a pace band on each run: traffic-light stops, corners and
    /// GPS noise, and runs whose true pace wanders around the band.
    static let workout = "10m warmup, 6x(3m run @ 5:45-6:15/km, 2m walk), 5m cooldown"

    static func replay(_ workout: String = workout, track: String = "SampleTracks/city-stopgo.nmea") throws -> (RunWalkBinary.Output, Summary?) {
        let result = try RunWalkBinary.run(["replay", track, "--workout", workout, "--json", "--no-record"])
        let summary = try? JSONDecoder().decode(Summary.self, from: Data(result.stdout.utf8))
        return (result, summary)
    }

    @Test("coaching comes after the grace period, at most once per 30 s each way unless worse, never within 3 s of a transition or countdown",
          arguments: [("city-stopgo", workout), ("city-stopgo", "8x(90s run @ 6:00-6:30/km, 60s walk)"),
                      ("track-loop", "5m warmup, 8x(90s run @ 6:00-6:30/km, 60s walk), 5m cooldown"),
                      ("trail-10hz", "10x(400m run @ 5:00-5:30/km, 200m walk)")])
    func coachingRules(track: String, workout: String) throws {
        let (result, decoded) = try Self.replay(workout, track: "SampleTracks/\(track).nmea")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(decoded)
        let coaching = summary.cues.filter { $0.kind == .target }
        #expect(!coaching.isEmpty, "some run leaves the band for longer than the grace period")
        let beats = summary.cues.filter { $0.kind == .transition || $0.kind == .countdown }
        let truth = try Self.stationary(track)
        let settings = TargetCoach.Settings()
        for cue in coaching {
            let phase = try #require(summary.phases.last { $0.startSeconds <= cue.atSeconds }, "\(cue.text)")
            #expect(phase.kind == .run && phase.target != nil, "\(cue.text) at \(cue.atSeconds) is in a run with a band")
            #expect(cue.atSeconds - phase.startSeconds >= settings.graceSeconds,
                    "\(cue.text) at \(cue.atSeconds): not before the grace period (phase from \(phase.startSeconds))")
            // Spoken spans (with --voice off the lengths are the estimated ones) kept 3 s apart.
            let quiet = CuePlanner.targetQuietSeconds
            for beat in beats {
                let clear = beat.atSeconds >= Self.end(cue) + quiet - 1e-6 || cue.atSeconds >= Self.end(beat) + quiet - 1e-6
                #expect(clear, "\(cue.text) at \(cue.atSeconds) is within 3 s of \"\(beat.text)\" at \(beat.atSeconds)")
            }
            // Standing at a light is not coached: no "speed up" while the runner stands (a few seconds
            // after a stop starts, the filter has seen it).
            let standing = truth.contains { cue.atSeconds >= $0.start + 3 && cue.atSeconds <= $0.end }
            #expect(!(standing && cue.text.hasPrefix("Speed up")), "\(cue.text) at \(cue.atSeconds) while standing")
        }
        for side in ["Speed up", "Slow down"] {
            let said = coaching.filter { $0.text.hasPrefix(side) }
            let gaps = zip(said, said.dropFirst()).map { $0.1.atSeconds - $0.0.atSeconds }
            for (g, h) in zip(gaps, gaps.dropFirst()) {
                #expect(g >= settings.repeatSeconds || h >= settings.repeatSeconds, "\(side): two early cues in a row (\(gaps))")
            }
            for (a, b) in zip(said, said.dropFirst()) where b.atSeconds - a.atSeconds < settings.repeatSeconds {
                // Within 30 s only when worse: further out of the band by the coach's step, 10 s on at least.
                #expect(b.atSeconds - a.atSeconds >= settings.worseAfterSeconds, "\(side) at \(a.atSeconds) and \(b.atSeconds)")
                let band = try #require(summary.phases.last { $0.startSeconds <= a.atSeconds }?.target)
                let (fast, slow) = (band.paceMinSecondsPerKm ?? 0, band.paceMaxSecondsPerKm ?? 0)
                let paceA = try #require(Self.pace(a.text)), paceB = try #require(Self.pace(b.text))
                let excessA = max(paceA - slow, fast - paceA), excessB = max(paceB - slow, fast - paceB)
                let step = max(settings.worsePaceSecondsPerKm, settings.worsePaceFraction * excessA)
                // The spoken pace is rounded to the second: allow two seconds.
                #expect(excessB + 2 >= excessA + step, "\(a.text) at \(a.atSeconds), then \(b.text) at \(b.atSeconds)")
            }
        }
    }

    /// When a cue's utterance ends, by the estimated speech timing that `--voice off` uses.
    static func end(_ cue: Summary.CueEntry) -> Double {
        cue.atSeconds + SpeechTiming.estimated.measure(cue.text, language: .en).durationSeconds
    }

    /// The pace a coaching cue says, seconds per km: "Speed up, 6 minutes 45 per kilometre." → 405.
    static func pace(_ text: String) -> Double? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "." }).map(String.init)
        guard let m = words.firstIndex(where: { $0.hasPrefix("minute") }), m > 0, let minutes = Double(words[m - 1]) else { return nil }
        let seconds = m + 1 < words.count ? Double(words[m + 1]) ?? 0 : 0
        return minutes * 60 + seconds
    }

    @Test("the replay is reproducible, and each run's times in, below and above its band add up to its duration")
    func reproducibleAndAddsUp() throws {
        let (first, summary) = try Self.replay()
        let (second, _) = try Self.replay()
        #expect(first.stdout == second.stdout)
        let phases = try #require(summary).phases
        let banded = phases.filter { $0.target != nil }
        #expect(banded.count == 6)
        for phase in banded {
            let sum = (phase.timeInTargetSeconds ?? -1) + (phase.timeBelowSeconds ?? -1) + (phase.timeAboveSeconds ?? -1)
            #expect(abs(sum - phase.durationSeconds) < 1e-6, "phase \(phase.index): \(sum) vs \(phase.durationSeconds)")
            #expect(phase.target?.text == "5:45-6:15/km")
            #expect(phase.target?.paceMinSecondsPerKm == 345)
        }
        #expect(phases.filter { $0.target == nil }.allSatisfy { $0.timeInTargetSeconds == nil })
        #expect(first.stdout.contains("\"time_in_target_s\""))
    }

    @Test("a workout that ends on the heart rate without a max is refused at start (no heart-rate source), with one")
    func heartRateRefused() throws {
        let refused = try RunWalkBinary.run(["replay", "SampleTracks/demo-short.nmea", "--workout", "run until hr 150, walk until hr 120 max 1m",
                                              "--no-record"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("phase 1 (\"run until hr 150\") ends on the heart rate and there is no heart-rate source"))
        let (bounded, summary) = try Self.replay("run until hr 150 max 1m, walk until hr 120 max 30s", track: "SampleTracks/demo-short.nmea")
        #expect(bounded.status == 0, "\(bounded.stderr)")
        let phases = try #require(summary).phases
        #expect(phases.map(\.durationSeconds).prefix(2) == [60, 30], "each falls back on its max")
        #expect(phases.first?.planned.until == "until hr 150 max 1m")
    }

    @Test("workouts show lists each phase's target")
    func workoutsShow() throws {
        let result = try RunWalkBinary.run(["workouts", "show", "2x(90s run @ 6:00-6:30/km, walk until hr 110 max 2m)"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  1  run      1:30  @ 6:00-6:30/km"))
        #expect(lines.contains("  2  walk     until hr 110 max 2m"))
        #expect(!result.stdout.contains("total"), "no planned total with a heart-rate condition")
    }

    /// The truth file's standing-still intervals, seconds from the start.
    static func stationary(_ track: String) throws -> [(start: Double, end: Double)] {
        let url = RunWalkBinary.repositoryRoot.appendingPathComponent("SampleTracks/\(track).truth.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let intervals = object?["stationary"] as? [[String: Double]] ?? []
        return intervals.compactMap { i in i["start_s"].flatMap { s in i["end_s"].map { (s, $0) } } }
    }
}
