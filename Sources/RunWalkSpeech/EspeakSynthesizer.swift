#if canImport(Glibc)
import Glibc
#endif
import CEspeakNG
import RunWalkCore
import RunWalkRuntime

/// A failure inside espeak-ng, with its status code and message.
public struct SpeechError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(description: String) { self.description = description }
}

/// espeak-ng in process, synchronous: text in, PCM and word positions out.
///
/// espeak-ng keeps its state in process globals, so there is one synthesiser per
/// process (`shared`), and every call holds its lock. Clips are cached by language
/// and text (`ClipCache`, within a budget): a workout says the same few sentences many times.
public final class EspeakSynthesizer: @unchecked Sendable {
    private let lock = Lock()
    private var voice: Language?
    private var cache = ClipCache()

    /// The process's synthesiser, initialised on first use.
    public static func shared() throws -> EspeakSynthesizer {
        try sharedResult.get()
    }

    private static let sharedResult: Result<EspeakSynthesizer, SpeechError> = {
        do { return .success(try EspeakSynthesizer()) } catch let error as SpeechError { return .failure(error) } catch { return .failure(SpeechError(description: "\(error)")) }
    }()

    private init() throws(SpeechError) {
        // libespeak-ng is opened here, on first use, not at start-up (CEspeakNG).
        guard rw_espeak_load() != 0 else { throw SpeechError(description: "espeak-ng is not available (\(String(cString: rw_espeak_load_error())))") }
        espeak_ng_InitializePath(nil)
        try Self.check(espeak_ng_Initialize(nil), "initialise")
        try Self.check(espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil), "open synchronous output")
        espeak_SetSynthCallback(collectSamples)
    }

    /// The clip for `text` in `language` (synthesised once, then cached).
    public func clip(_ text: String, language: Language) throws -> SpeechClip {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(language.rawValue)|\(text)"
        if let clip = cache.clip(for: key) { return clip }
        let clip = try synthesizeLocked(text, language: language)
        cache.insert(clip, for: key)
        return clip
    }

    /// Synthesises without the cache (for benchmarks).
    public func synthesizeUncached(_ text: String, language: Language) throws -> SpeechClip {
        lock.lock()
        defer { lock.unlock() }
        return try synthesizeLocked(text, language: language)
    }

    /// Timing measured from real audio, for the cue planner; estimates if synthesis fails.
    public var timing: SpeechTiming {
        SpeechTiming(name: "espeak-ng") { [self] text, language in
            (try? clip(text, language: language))?.timing ?? SpeechTiming.estimated.measure(text, language: language)
        }
    }

    private func synthesizeLocked(_ text: String, language: Language) throws -> SpeechClip {
        if voice != language {
            try Self.check(espeak_ng_SetVoiceByName(language.voiceName), "select voice \"\(language.voiceName)\"")
            voice = language
        }
        let collector = PCMCollector()
        let started = monotonicNanos()
        collector.startedNanos = started
        let status = text.withCString { chars in
            espeak_ng_Synthesize(chars, strlen(chars) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8),
                                 nil, Unmanaged.passUnretained(collector).toOpaque())
        }
        try Self.check(status, "synthesise \"\(text)\"")
        return SpeechClip(raw: collector.samples, wordStartSamples: collector.wordStartSamples,
                          firstSampleNanos: collector.firstSampleNanos ?? 0, synthesisNanos: monotonicNanos() - started)
    }

    private static func check(_ status: espeak_ng_STATUS, _ doing: String) throws(SpeechError) {
        guard status != ENS_OK else { return }
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(status, &buffer, buffer.count)
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw SpeechError(description: "espeak-ng error 0x\(String(status.rawValue, radix: 16)) while trying to \(doing): \(message)")
    }
}

/// Where the synth callback puts what espeak-ng hands it; found through the events' `user_data`.
final class PCMCollector {
    var samples: [Int16] = []
    var wordStartSamples: [Int] = []
    var startedNanos: UInt64 = 0
    var firstSampleNanos: UInt64?
}

/// espeak-ng's synth callback: appends samples and word starts to the call's collector.
private let collectSamples: @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = { wav, count, events in
    guard let events, let userData = events.pointee.user_data else { return 0 }
    let collector = Unmanaged<PCMCollector>.fromOpaque(userData).takeUnretainedValue()
    if let wav, count > 0 {
        if collector.firstSampleNanos == nil { collector.firstSampleNanos = monotonicNanos() - collector.startedNanos }
        collector.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    }
    var event = events
    while event.pointee.type != espeakEVENT_LIST_TERMINATED {
        if event.pointee.type == espeakEVENT_WORD {
            // audio_position is in milliseconds from the start of this synthesis.
            collector.wordStartSamples.append(Int(event.pointee.audio_position) * SpeechClip.sampleRate / 1000)
        }
        event += 1
    }
    return 0
}

/// Nanoseconds on the monotonic clock.
func monotonicNanos() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
