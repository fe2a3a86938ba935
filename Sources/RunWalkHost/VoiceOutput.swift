import FoundationEssentials
import RunWalkIO
import RunWalkCore
import RunWalkSpeech

/// Where cues go: `text|wav:FILE|speaker|off` (the `--voice` option, the `voice` setting).
public enum VoiceMode: Equatable, Sendable {
    case off, text, speaker
    case wav(path: String)

    /// Reads a mode as the option and the setting spell it.
    public static func parse(_ value: String) throws(VoiceOutputError) -> VoiceMode {
        switch value {
        case "off": return .off
        case "text": return .text
        case "speaker": return .speaker
        default:
            if value.hasPrefix("wav:") {
                let path = String(value.dropFirst(4))
                guard !path.isEmpty else { throw VoiceOutputError(input: true, message: "--voice wav: needs a file name, as in --voice wav:session.wav") }
                return .wav(path: path)
            }
            throw VoiceOutputError(input: true, message: "--voice \(UserText.printable(value)): expected text, wav:FILE, speaker or off")
        }
    }
}

/// A voice that cannot be set up (a wrong mode: `input`) or that failed while speaking.
public struct VoiceOutputError: Error, CustomStringConvertible {
    /// The mode itself was wrong (exit 2), not the machine.
    public var input = false
    /// One line for the user.
    public var message: String
    public var description: String { message }
}

/// Carries cues out as the session emits them: text lines, a WAV track, or the speaker.
///
/// Chosen once from `--voice`; the speaker falls back to text on standard error (saying
/// so once) when no audio server answers.
public final class VoiceOutput: @unchecked Sendable {
    private enum Sink { case off, text, wav(WAVTrackWriter), speaker(SpeakerSink) }
    private var sink: Sink
    /// Where text cues go (standard error; the full-screen view holds them back).
    public var textLine: @Sendable (String) -> Void
    /// Where the voice's own trouble is told (standard error in the CLI).
    private let warn: @Sendable (String) -> Void
    private let synthesizer: EspeakSynthesizer?
    private let language: Language
    private let speed: Double?
    /// The session clock as last reported, to time speaker cues planned ahead.
    private var clockSeconds = 0.0
    /// The failure that silenced the voice mid-session: `finish` still throws it, so a WAV left
    /// partial (a full disk, `/dev/full`) fails the command once the session is saved.
    private var failure: VoiceOutputError?

    /// Opens the voice for `mode`; `warn` hears what it falls back to, text cues go to `warn` too until `textLine` is set.
    /// The speaker lowers other audio by `duck` during cues.
    public init(_ mode: VoiceMode, language: Language, speed: Double?, duck: DuckLevel = .standard,
                warn: @escaping @Sendable (String) -> Void) throws(VoiceOutputError) {
        self.warn = warn
        // Music an earlier RunWalk left lowered (killed mid-cue) comes back up first, whatever the voice.
        let restored = MusicDuckingRecovery.restoreLeftovers()
        if restored > 0 { warn("runwalk: restored the volume of \(restored) audio stream\(restored == 1 ? "" : "s") an interrupted runwalk had lowered") }
        textLine = warn
        self.language = language
        self.speed = speed
        switch mode {
        case .off:
            sink = .off
            synthesizer = nil
        case .text:
            // Estimated timing, as with no voice: measuring real audio would load libespeak-ng and,
            // through it, libpulse and ALSA (about 3 MB resident) in a run that never speaks (issue 18).
            sink = .text
            synthesizer = nil
        case .wav(let path):
            do {
                synthesizer = try EspeakSynthesizer.shared()
                sink = .wav(try WAVTrackWriter(path: path))
            } catch let error as SpeechError {
                throw VoiceOutputError(message: error.description)
            } catch {
                throw VoiceOutputError(message: "\(path): " + FileErrorText.reason(error))
            }
        case .speaker:
            // The synthesiser only once the speaker answers: falling back, the voice is exactly `text`.
            do {
                let speaker = try SpeakerSink(duckDecibels: duck.loweringDecibels, notice: { warn("runwalk: \($0)") })
                synthesizer = try EspeakSynthesizer.shared()
                sink = .speaker(speaker)
            } catch let error as SpeechError {
                warn("runwalk: \(error.description): speaking cues as text on standard error\(Self.noDucking(duck))")
                sink = .text
                synthesizer = nil
            } catch {
                warn("runwalk: the speaker: \(FileErrorText.reason(error)): speaking cues as text on standard error\(Self.noDucking(duck))")
                sink = .text
                synthesizer = nil
            }
        }
        // Engine initialised (and the transition phrases warmed) before the first cue is due.
        if let synthesizer { _ = try? synthesizer.clip("1", language: language) }
    }

    /// The fallback line's note that music will not be lowered either (when ducking was asked for).
    private static func noDucking(_ duck: DuckLevel) -> String {
        duck.loweringDecibels == nil ? "" : " (no music ducking)"
    }

    /// How long utterances sound, for the planner.
    public var timing: SpeechTiming { synthesizer?.timing ?? .estimated }

    /// Speaks the cues among the session's events.
    public func handle(_ event: SessionEvent) throws(VoiceOutputError) {
        switch event {
        case .telemetry(_, let clock): clockSeconds = max(clockSeconds, clock)
        case .engine(let engineEvent): clockSeconds = max(clockSeconds, engineEvent.time.seconds)
        case .cue(let cue):
            // A split predicted between two fixes comes at its instant, with no fix to tell the
            // time: the cue's moment is now (a split completed by a fix asks for a moment past).
            if cue.kind == .split { clockSeconds = max(clockSeconds, cue.anchorSeconds) }
            try say(cue)
        default: break
        }
    }

    /// As `handle`, for live runs that must go on: a failing voice is reported once, then silent.
    public func handleReportingFailure(_ event: SessionEvent) {
        do {
            try handle(event)
        } catch {
            if case .off = sink { return }
            warn("runwalk: voice: \(error.message); no more voice cues")
            failure = error
            sink = .off
        }
    }

    /// How long the speaker may go on after a stop before the command ends anyway.
    public static let stoppedSpeakerSeconds = 1.0

    /// Completes the output: the WAV is padded to `sessionSeconds` (its closing cue is never cut).
    /// The speaker is waited for until it has said everything, or at most `stoppedSpeakerSeconds`
    /// when the session was `stopped` (a stop ends the command within 2 s).
    public func finish(sessionSeconds: Double, stopped: Bool = false) throws(VoiceOutputError) {
        if let failure { throw failure }
        do {
            switch sink {
            case .wav(let writer): try writer.finish(totalSeconds: sessionSeconds)
            case .speaker(let speaker) where stopped: try speaker.drain(atMostSeconds: Self.stoppedSpeakerSeconds)
            case .speaker(let speaker): try speaker.drain()
            case .off, .text: break
            }
        } catch let error as SpeechError {
            throw VoiceOutputError(message: error.description)
        } catch {
            throw VoiceOutputError(message: FileErrorText.reason(error))
        }
    }

    private func say(_ cue: Cue) throws(VoiceOutputError) {
        do {
            switch sink {
            case .off: return
            case .text: textLine(Self.line(cue))
            case .wav(let writer):
                guard let synthesizer else { return }
                try writer.add(try synthesizer.clip(cue.text, language: language), at: cue.atSeconds)
            case .speaker(let speaker):
                guard let synthesizer else { return }
                // Planned-ahead cues wait for their moment when replaying in real time.
                let delay = speed.map { (cue.atSeconds - clockSeconds) / $0 } ?? 0
                speaker.play(try synthesizer.clip(cue.text, language: language), afterSeconds: delay)
            }
        } catch let error as SpeechError {
            throw VoiceOutputError(message: error.description)
        } catch {
            throw VoiceOutputError(message: FileErrorText.reason(error))
        }
    }

    /// "[4:57.000] 3" — the cue's start on the session clock, then its words.
    public static func line(_ cue: Cue) -> String {
        let millis = Int((max(0, cue.atSeconds) * 1000).rounded())
        let text = CFormat.string("%ld:%02ld.%03ld", millis / 60_000, millis / 1000 % 60, millis % 1000)
        return "[\(text)] \(cue.text)"
    }
}
