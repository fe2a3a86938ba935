import Testing
@testable import RunWalkSpeech

@Suite("Clip cache")
struct ClipCacheTests {
    /// A loud clip of `samples` samples (nothing is trimmed from it).
    static func clip(_ samples: Int) -> SpeechClip {
        SpeechClip(raw: [Int16](repeating: 1000, count: samples), wordStartSamples: [0], firstSampleNanos: 0, synthesisNanos: 0)
    }

    @Test("sentences said once give way within the budget; a repeated one stays")
    func bounded() throws {
        var cache = ClipCache(budgetSamples: 10_000)
        cache.insert(Self.clip(1000), for: "en|Run for 90 seconds.")
        // A kilometre cue each time, every one different, far more than the budget in all.
        for km in 1...50 {
            cache.insert(Self.clip(3000), for: "en|Kilometre \(km)")
            #expect(cache.clip(for: "en|Run for 90 seconds.") != nil, "the repeated sentence is kept (km \(km))")
            #expect(cache.heldSamples <= 10_000, "\(cache.heldSamples) samples held after km \(km)")
        }
        #expect(cache.count == 4, "the repeated sentence and the three latest kilometres")
        #expect(cache.clip(for: "en|Kilometre 50") != nil && cache.clip(for: "en|Kilometre 1") == nil)
    }

    @Test("the default budget keeps a run/walk workout's repeated sentences, as espeak-ng says them, through 20 km of kilometre cues")
    func defaultBudgetFitsAWorkout() throws {
        let synthesizer = try EspeakSynthesizer.shared()
        func spoken(_ text: String) throws -> SpeechClip { try synthesizer.synthesizeUncached(text, language: .en) }
        let repeated = ["3", "2", "1", "Run for 90 seconds.", "Walk for 1 minute."]
        let clips = try Dictionary(uniqueKeysWithValues: repeated.map { ($0, try spoken($0)) })
        var cache = ClipCache()
        var misses: [String] = []
        var kilometre = 0
        // 8x(90s run, 60s walk) over and over: the countdown before each phase, a kilometre cue
        // (always a new sentence, about 5 s of speech) every third interval.
        for interval in 1...60 {
            for phase in ["Run for 90 seconds.", "Walk for 1 minute."] {
                for text in ["3", "2", "1", phase] {
                    if cache.clip(for: text) == nil {
                        if interval > 1 { misses.append("\(text) (interval \(interval))") }
                        cache.insert(try #require(clips[text]), for: text)
                    }
                }
            }
            if interval % 3 == 0 {
                kilometre += 1
                let text = "Kilometre \(kilometre) in \(kilometre * 7) minutes \(kilometre % 60). Pace 7 minutes \(kilometre % 60) per kilometre."
                cache.insert(try spoken(text), for: text)
            }
            #expect(cache.heldSamples <= cache.budgetSamples)
        }
        #expect(misses.isEmpty, "repeated sentences synthesised again: \(misses)")
        #expect(cache.budgetSamples * 2 <= 512 * 1024, "at most 512 kB of clips")
    }

    @Test("a clip larger than the budget is not kept; replacing a key counts once")
    func edges() {
        var cache = ClipCache(budgetSamples: 100)
        cache.insert(Self.clip(101), for: "a")
        #expect(cache.count == 0 && cache.heldSamples == 0)
        cache.insert(Self.clip(60), for: "b")
        cache.insert(Self.clip(60), for: "b")
        #expect(cache.count == 1 && cache.heldSamples == 60)
    }
}
