import RunWalkCore
import Testing
@testable import RunWalkSpeech

/// espeak-ng is process-global: every suite that synthesises runs inside this one, serialised.
@Suite("espeak-ng speech (real)", .serialized)
struct SpeechSuites {
    @Suite("EspeakSynthesizer")
    struct EspeakSynthesizerTests {
        @Test("one cue per language is non-silent speech of a plausible length", arguments: Language.allCases)
        func renders(language: Language) throws {
            let text = language.phrases.transition(.run, target: .duration(.seconds(90)), units: .metric)
            let clip = try EspeakSynthesizer.shared().synthesizeUncached(text, language: language)
            #expect((0.8...4.0).contains(clip.durationSeconds), "\(text): \(clip.durationSeconds) s")
            #expect(clip.wordStartSamples.count >= 4, "espeak-ng reported \(clip.wordStartSamples.count) word starts")
            let rms = Audio.rms(clip.samples[...])
            #expect(rms > 1000, "RMS \(rms) is not speech")
            // Speech has pauses between words: not one flat tone.
            let windows = stride(from: 0, to: clip.samples.count - 441, by: 441).map { Audio.rms(clip.samples[$0..<$0 + 441]) }
            #expect(windows.filter { $0 > 500 }.count > windows.count / 3)
            #expect(windows.filter { $0 < 200 }.count >= 1)
            #expect(clip.timing.keyWordOffsetSeconds < 0.1, "the key word comes first")
        }

        @Test("the two languages sound different, and the cache returns the same clip")
        func languagesDiffer() throws {
            let synth = try EspeakSynthesizer.shared()
            let en = try synth.clip("3", language: .en)
            let de = try synth.clip("3", language: .de)
            #expect(en.samples != de.samples)
            #expect(try synth.clip("3", language: .en) == en)
        }

        @Test("the key word's onset is where the samples first get loud after espeak-ng's first word start")
        func keyWordOnset() throws {
            let clip = try EspeakSynthesizer.shared().synthesizeUncached("2", language: .en)
            let onset = clip.keyWordOnsetSample
            #expect(onset >= (clip.wordStartSamples.first ?? 0))
            #expect(clip.samples[..<onset].allSatisfy { abs(Int32($0)) <= Int32(SpeechClip.audibleLevel) })
            #expect(abs(Int32(clip.samples[onset])) > Int32(SpeechClip.audibleLevel))
        }
    }
}

/// Small signal helpers for the tests.
enum Audio {
    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot()
    }
}

extension SpeechSuites {
    @Suite("Planner with espeak-ng timing")
    struct PlannerWithEspeakTests {
        @Test("each language's transition is planned so its key word's first sound, after espeak-ng's word start, is on the boundary",
              arguments: Language.allCases)
        func keyWordOnBoundary(language: Language) throws {
            let synth = try EspeakSynthesizer.shared()
            let workout = try Workout(parsing: "60s run, 60s walk")
            var planner = CuePlanner(workout: workout, language: language, timing: synth.timing)
            let cues = planner.cues(for: .countdown(secondsLeft: 1, nextIndex: 1, at: .seconds(59)), upcoming: nil)
            let transition = try #require(cues.last)
            #expect(transition.kind == .transition)
            let clip = try synth.clip(transition.text, language: language)
            // The first word event espeak-ng reported, then the first sound at or after it.
            let wordStart = try #require(clip.wordStartSamples.first)
            let firstSound = try #require(clip.samples.indices.dropFirst(wordStart).first { abs(Int32(clip.samples[$0])) > 150 })
            let heardAt = transition.atSeconds + Double(firstSound) / Double(SpeechClip.sampleRate)
            #expect(abs(heardAt - 60) <= 0.020, "\(transition.text): key word heard at \(heardAt) s")
            #expect(transition.endSeconds <= 60 + clip.durationSeconds)
        }
    }
}
