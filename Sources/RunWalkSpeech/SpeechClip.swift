import RunWalkCore

/// One synthesised utterance: 16-bit mono PCM, where its words start, and how long it took.
public struct SpeechClip: Sendable, Equatable {
    /// espeak-ng's output rate.
    public static let sampleRate = 22050
    /// A sample louder than this (about -44 dBFS; espeak-ng's silence is exact zero) counts as sound when trimming and finding onsets.
    public static let audibleLevel: Int16 = 200

    /// The samples, trimmed after the last audible one (plus a 20 ms tail).
    public var samples: [Int16]
    /// Sample offsets where espeak-ng reported each word to start (its `audio_position`).
    public var wordStartSamples: [Int]
    /// First audible sample at or after the first word's start.
    public var keyWordOnsetSample: Int
    /// Monotonic nanoseconds from the synthesise call to the first samples, and to the last.
    public var firstSampleNanos: UInt64
    public var synthesisNanos: UInt64

    /// Length and key-word onset, for the cue planner.
    public var timing: UtteranceTiming {
        UtteranceTiming(durationSeconds: Double(samples.count) / Double(Self.sampleRate),
                        keyWordOffsetSeconds: Double(keyWordOnsetSample) / Double(Self.sampleRate))
    }

    /// Seconds of audio.
    public var durationSeconds: Double { Double(samples.count) / Double(Self.sampleRate) }

    /// Builds a clip from raw synthesiser output: trims trailing silence, finds the key word's onset.
    init(raw: [Int16], wordStartSamples: [Int], firstSampleNanos: UInt64, synthesisNanos: UInt64) {
        let lastAudible = raw.lastIndex { abs(Int32($0)) > Int32(Self.audibleLevel) } ?? -1
        let tail = Self.sampleRate / 50
        let trimmed = Array(raw.prefix(min(raw.count, lastAudible + 1 + tail)))
        samples = trimmed
        self.wordStartSamples = wordStartSamples
        let firstWord = wordStartSamples.first ?? 0
        keyWordOnsetSample = trimmed.indices.dropFirst(min(firstWord, trimmed.count))
            .first { abs(Int32(trimmed[$0])) > Int32(Self.audibleLevel) } ?? 0
        self.firstSampleNanos = firstSampleNanos
        self.synthesisNanos = synthesisNanos
    }
}
