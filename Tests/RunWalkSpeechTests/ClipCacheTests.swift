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
