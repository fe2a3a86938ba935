import Foundation
import Testing

/// The replay's WAV voice track, measured from its samples.
@Suite("runwalk replay --voice (end to end)", .serialized)
struct VoiceReplayTests {
    static let spec = "5m warmup, 8x(90s run, 60s walk), 5m cooldown"
    static let rate = 22050.0

    struct CueEntry { var at: Double; var text: String; var kind: String }

    /// Where speech starts at or after `from` (2 ms windows, RMS above `level`, about -47 dBFS), in seconds.
    static func onset(_ samples: [Int16], from: Double, within: Double, level: Double = 150) -> Double? {
        let window = 44
        var i = max(0, Int(from * rate))
        let end = min(samples.count - window, Int((from + within) * rate))
        while i < end {
            let sum = samples[i..<i + window].reduce(0.0) { $0 + Double($1) * Double($1) }
            if (sum / Double(window)).squareRoot() > level {
                // The window's first sample above the level marks the onset.
                let first = (i..<i + window).first { abs(Double(samples[$0])) > level } ?? i
                return Double(first) / rate
            }
            i += window / 2
        }
        return nil
    }

    static func silent(_ samples: [Int16], from: Double, to: Double) -> Bool {
        let a = max(0, Int(from * rate)), b = min(samples.count, Int(to * rate))
        return a >= b || samples[a..<b].allSatisfy { abs(Int32($0)) <= 400 }
    }

    @Test("the WAV is the workout's timeline: key words on the boundaries, numbers on the seconds, no overlap")
    func wavTimeline() throws {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("rw-voice-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let result = try RunWalkBinary.run(["replay", "SampleTracks/track-loop.nmea", "--workout", Self.spec,
                                            "--voice", "wav:\(wav.path)", "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let duration = try #require(summary["duration_s"] as? Double)
        #expect(duration == 1800)
        let phases = try #require(summary["phases"] as? [[String: Any]])
        let cues = try #require(summary["cues"] as? [[String: Any]]).compactMap { entry -> CueEntry? in
            guard let at = entry["at_s"] as? Double, let text = entry["text"] as? String, let kind = entry["kind"] as? String else { return nil }
            return CueEntry(at: at, text: text, kind: kind)
        }
        let data = try Data(contentsOf: wav)
        let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let length = Double(samples.count) / Self.rate

        // Length: the workout's, to the sample; the closing announcement is placed to end with it (never cut).
        let closing = try #require(cues.last)
        #expect(closing.kind == "complete" && closing.at < duration - 3, "closing cue at \(closing.at) s")
        let lastLoud = Double(samples.lastIndex { abs(Int32($0)) > 400 } ?? 0) / Self.rate
        #expect(abs(length - duration) < 1 / Self.rate, "WAV \(length) s, workout \(duration) s")
        #expect(duration - lastLoud < 0.03, "the closing words end at \(lastLoud) s, the workout at \(duration) s")
        #expect(Self.onset(samples, from: closing.at - 0.001, within: 0.3) != nil)

        // Transition key words on every boundary; countdown numbers on their seconds.
        let boundaries = phases.compactMap { $0["start_s"] as? Double }.filter { $0 > 0 }
        #expect(boundaries.count == 17)
        var worstTransition = 0.0, worstCountdown = 0.0
        for boundary in boundaries {
            let cue = try #require(cues.first { $0.kind == "transition" && abs($0.at - boundary) < 0.5 }, "transition at \(boundary)")
            let heard = try #require(Self.onset(samples, from: boundary - 0.3, within: 0.6), "speech near \(boundary)")
            worstTransition = max(worstTransition, abs(heard - boundary))
            #expect(abs(heard - boundary) <= 0.020, "\"\(cue.text)\" key word at \(heard) s, boundary \(boundary) s")
        }
        // The last countdown gives way to the closing cue, which fills the workout's last seconds.
        for boundary in boundaries {
            for n in 1...3 {
                let second = boundary - Double(n)
                let heard = try #require(Self.onset(samples, from: second - 0.2, within: 0.4), "number \(n) near \(second)")
                worstCountdown = max(worstCountdown, abs(heard - second))
                #expect(abs(heard - second) <= 0.020, "\(n) heard at \(heard) s, due at \(second) s")
            }
        }
        // No overlap: each cue's sound begins where it was placed, with silence just before it.
        for cue in cues where cue.at > 0 {
            #expect(Self.silent(samples, from: cue.at - 0.05, to: cue.at - 0.001), "\"\(cue.text)\" at \(cue.at) starts over other speech")
            let heard = Self.onset(samples, from: cue.at - 0.001, within: 0.3)
            #expect(heard.map { $0 - cue.at < 0.2 } == true, "\"\(cue.text)\" at \(cue.at) is not where it was planned")
        }
        print(String(format: "voice timing: worst transition key-word error %.2f ms over %d boundaries, worst countdown error %.2f ms over %d numbers; WAV %.4f s for a %.0f s workout, closing words end %.1f ms before its end",
                     worstTransition * 1000, boundaries.count, worstCountdown * 1000, boundaries.count * 3, length, duration, (duration - lastLoud) * 1000))
    }

    @Test("--voice text prints each cue with its time on standard error; --language de speaks German")
    func textCues() throws {
        let result = try RunWalkBinary.run(["replay", "SampleTracks/track-loop.nmea", "--workout", "90s run, 60s walk",
                                            "--voice", "text", "--language", "de", "--json"])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "[0:00.000] Laufen für 90 Sekunden.")
        #expect(lines.contains { $0.hasSuffix("] Gehen für eine Minute.") })
        // "3" falls on 1:27: the text voice plans with estimated timing (it synthesises nothing, so
        // libespeak-ng is never loaded), whose key word starts at once.
        #expect(lines.contains("[1:27.000] 3"), "\(lines)")
        #expect(result.stdout.hasPrefix("{"))
    }

    @Test("a bad --voice value exits 2 naming the choices")
    func badVoice() throws {
        let result = try RunWalkBinary.run(["replay", "SampleTracks/track-loop.nmea", "--workout", "90s run", "--voice", "loud"])
        #expect(result.status == 2)
        #expect(result.stderr == "runwalk: error: --voice loud: expected text, wav:FILE, speaker or off\n")
    }
}

@Suite("runwalk run --voice speaker without an audio server (end to end)")
struct VoiceSpeakerFallbackTests {
    @Test("says once that there is no audio server, then speaks the cues as text on standard error")
    func fallsBackToText() throws {
        let result = try RunWalkBinary.collect(Launch(
            ["run", "1m warmup, 2x(30s run, 30s walk), 1m cooldown", "--gps", "file:SampleTracks/demo-short.nmea",
             "--voice", "speaker", "--json", "--no-record", "--start", "now"],
            environment: ["PULSE_SERVER": "unix:/nonexistent/runwalk-no-audio.sock"]))
        let stdout = result.stdout, stderr = result.stderr
        #expect(result.status == 0, "\(stderr)")
        let lines = stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("no audio server") }.count == 1)
        #expect(lines.contains("[1:00.000] Run for 30 seconds."))
        #expect(lines.contains { $0.hasSuffix("] Workout complete.") || $0.contains("] Workout complete. ") })
        #expect(stdout.hasPrefix("{"))
    }
}
