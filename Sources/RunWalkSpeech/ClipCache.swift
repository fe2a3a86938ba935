/// The synthesiser's clips by language and text, within a budget of samples: a workout's
/// repeated sentences ("Run for 90 seconds.", the countdown) stay, while sentences said once
/// (every kilometre's time and pace: about 200 kB each) give way to newer ones, so a 5-hour
/// run's memory does not grow by a clip per kilometre.
struct ClipCache {
    /// Samples kept at most (Int16: two bytes each).
    let budgetSamples: Int
    private var entries: [String: (clip: SpeechClip, lastUse: Int)] = [:]
    private var use = 0
    /// Samples held now.
    private(set) var heldSamples = 0

    /// 256 K samples (512 kB, 11.9 s of speech at 22,050 Hz): a workout's repeated sentences
    /// ("3", "2", "1", "Run for 90 seconds.", "Walk for 1 minute.": 107 K samples together) and the
    /// kilometre cue being said (about 120 K). It was 1 M samples (2 MB) until a speaking run's
    /// resident memory was measured against the 25 MB goal (issue 18): the rest only held
    /// kilometre cues that are never said again. Those still stay until newer clips push them
    /// out, never refused: the clip the cue planner timed must be the one that is said, and
    /// espeak-ng's output for a sentence depends on what it said before (synthesised again, the
    /// closing summary came out two samples longer and the WAV track overran its workout).
    init(budgetSamples: Int = 1 << 18) {
        self.budgetSamples = budgetSamples
    }

    /// Clips held.
    var count: Int { entries.count }

    /// The clip for `key`, marked as just used.
    mutating func clip(for key: String) -> SpeechClip? {
        guard let entry = entries[key] else { return nil }
        use += 1
        entries[key] = (entry.clip, use)
        return entry.clip
    }

    /// Keeps `clip` for `key`, dropping the least recently used clips beyond the budget (a clip
    /// larger than the whole budget is not kept).
    mutating func insert(_ clip: SpeechClip, for key: String) {
        guard clip.samples.count <= budgetSamples else { return }
        if let old = entries[key] { heldSamples -= old.clip.samples.count }
        use += 1
        entries[key] = (clip, use)
        heldSamples += clip.samples.count
        while heldSamples > budgetSamples, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            heldSamples -= oldest.value.clip.samples.count
        }
    }
}
