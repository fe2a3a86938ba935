/// How long an utterance sounds, and where its first word becomes audible.
public struct UtteranceTiming: Sendable, Equatable {
    /// From the first sample to the end of the last audible sound, seconds.
    public var durationSeconds: Double
    /// From the first sample to the onset of the first (key) word, seconds.
    public var keyWordOffsetSeconds: Double

    public init(durationSeconds: Double, keyWordOffsetSeconds: Double) {
        self.durationSeconds = durationSeconds
        self.keyWordOffsetSeconds = keyWordOffsetSeconds
    }
}

/// The planner's seam to the synthesiser: measures what an utterance will sound like.
///
/// The speech adapter measures real audio (espeak-ng's word events and the samples);
/// `.estimated` stands in where no synthesiser is at hand (text output, core tests).
public struct SpeechTiming: Sendable, Equatable {
    /// Names the measurement, so options holding it stay comparable.
    public let name: String
    private let measureText: @Sendable (String, Language) -> UtteranceTiming

    public init(name: String, measure: @escaping @Sendable (String, Language) -> UtteranceTiming) {
        self.name = name
        measureText = measure
    }

    /// The timing of `text` spoken in `language`.
    public func measure(_ text: String, language: Language) -> UtteranceTiming {
        measureText(text, language)
    }

    /// A rough rule of thumb (about 14 characters a second, speech starting at once).
    public static let estimated = SpeechTiming(name: "estimated") { text, _ in
        UtteranceTiming(durationSeconds: 0.25 + Double(text.count) * 0.07, keyWordOffsetSeconds: 0)
    }

    public static func == (a: SpeechTiming, b: SpeechTiming) -> Bool { a.name == b.name }
}
