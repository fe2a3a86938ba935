#if canImport(Glibc)
import Glibc
#endif
import Foundation
import RunWalkCore
import RunWalkSpeech

/// `runwalk-bench voice [--rounds N]`: espeak-ng in process — initialisation, time to first
/// sample and real-time factor per cue, each language; the peer is the `espeak-ng` command.
enum VoiceBenchmark {
    static func run(_ arguments: ArraySlice<String>) throws {
        var rounds = 20
        var rest = arguments
        while let flag = rest.popFirst() {
            guard flag == "--rounds", let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else {
                throw BenchError.usage("voice: expected --rounds N, not \(flag)")
            }
            rounds = value
        }
        let initStart = monotonicSeconds()
        let synth = try EspeakSynthesizer.shared()
        let initSeconds = monotonicSeconds() - initStart
        print(String(format: "espeak-ng initialise: %.1f ms (once, before the first cue is due)", initSeconds * 1000))
        print("| language | cue | audio s | first sample ms (median / max) | synthesis ms (median) | real-time factor |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        var worstFirst = 0.0
        for language in Language.allCases {
            let phrases = language.phrases
            let cues = [
                phrases.countdown(3),
                phrases.transition(.run, target: .duration(.seconds(90)), units: .metric),
                phrases.split(index: 2, elapsedSeconds: 760, paceSecondsPerUnit: 365, units: .metric),
                phrases.complete(distanceMetres: 5200, durationSeconds: 2280, paceSecondsPerUnit: 438, units: .metric),
            ]
            for text in cues {
                _ = try synth.synthesizeUncached(text, language: language)  // voice switch out of the timing
                var first: [Double] = [], total: [Double] = []
                var audio = 0.0
                for _ in 0..<rounds {
                    let clip = try synth.synthesizeUncached(text, language: language)
                    first.append(Double(clip.firstSampleNanos) / 1e6)
                    total.append(Double(clip.synthesisNanos) / 1e6)
                    audio = clip.durationSeconds
                }
                first.sort(); total.sort()
                let medianTotal = total[total.count / 2]
                worstFirst = max(worstFirst, first.last ?? 0)
                let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
                print(String(format: "| %@ | %@ | %.2f | %.2f / %.2f | %.1f | %.4f |", language.rawValue, shown, audio,
                             first[first.count / 2], first.last ?? 0, medianTotal, medianTotal / 1000 / audio))
            }
        }
        _ = try synth.clip("3", language: .en)
        let cachedStart = monotonicSeconds()
        _ = try synth.clip("3", language: .en)
        print(String(format: "worst time to first sample: %.2f ms (goal 20 ms); a cached cue: %.3f ms", worstFirst,
                     (monotonicSeconds() - cachedStart) * 1000))
        try peer(rounds: min(rounds, 10))
    }
}

/// The `espeak-ng` command writing a WAV, for comparison (process start and data load included).
private func peer(rounds: Int) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng") else {
        print("peer: /usr/bin/espeak-ng not installed"); return
    }
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("rw-bench-\(getpid()).wav")
    defer { try? FileManager.default.removeItem(at: out) }
    var times: [Double] = []
    for _ in 0..<rounds {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-v", "en", "-w", out.path, "Run for 90 seconds."]
        let start = monotonicSeconds()
        try process.run()
        process.waitUntilExit()
        times.append(monotonicSeconds() - start)
    }
    times.sort()
    print(String(format: "peer: espeak-ng command, \"Run for 90 seconds.\" to a WAV: median %.1f ms per cue (process start included)",
                 times[times.count / 2] * 1000))
}

private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
