import ArgumentParser
import Foundation
import RunWalkIO
import RunWalkCore
import RunWalkSpeech

/// `--voice text|wav:FILE|speaker|off`.
enum VoiceArgument: Equatable {
    case off, text, speaker
    case wav(path: String)

    static func parse(_ value: String) throws -> VoiceArgument {
        switch value {
        case "off": return .off
        case "text": return .text
        case "speaker": return .speaker
        default:
            if value.hasPrefix("wav:") {
                let path = String(value.dropFirst(4))
                guard !path.isEmpty else { throw UserFacingError.input("--voice wav: needs a file name, as in --voice wav:session.wav") }
                return .wav(path: path)
            }
            throw UserFacingError.input("--voice \(UserText.printable(value)): expected text, wav:FILE, speaker or off")
        }
    }
}

extension Language: ExpressibleByArgument {}

/// Carries cues out as the session emits them: text lines, a WAV track, or the speaker.
///
/// Chosen once from `--voice`; the speaker falls back to text on standard error (saying
/// so once) when no audio server answers.
final class VoiceOutput: @unchecked Sendable {
    private enum Sink { case off, text, wav(WAVTrackWriter), speaker(SpeakerSink) }
    private var sink: Sink
    /// Where text cues go (standard error; the full-screen view holds them back).
    var textLine: @Sendable (String) -> Void = { Terminal.warning($0) }
    private let synthesizer: EspeakSynthesizer?
    private let language: Language
    private let speed: Double?
    /// The session clock as last reported, to time speaker cues planned ahead.
    private var clockSeconds = 0.0

    init(_ mode: VoiceArgument, language: Language, speed: Double?) throws {
        self.language = language
        self.speed = speed
        switch mode {
        case .off:
            sink = .off
            synthesizer = nil
        case .text:
            // Real timing where espeak-ng is at hand, so text times match what would be heard.
            sink = .text
            synthesizer = try? EspeakSynthesizer.shared()
        case .wav(let path):
            do {
                synthesizer = try EspeakSynthesizer.shared()
                sink = .wav(try WAVTrackWriter(path: path))
            } catch let error as SpeechError {
                throw UserFacingError.runtime(error.description)
            }
        case .speaker:
            synthesizer = try? EspeakSynthesizer.shared()
            do {
                guard synthesizer != nil else { throw SpeechError(description: "espeak-ng could not be initialised") }
                sink = .speaker(try SpeakerSink())
            } catch let error as SpeechError {
                Terminal.warning("runwalk: \(error.description): speaking cues as text on standard error")
                sink = .text
            }
        }
        // Engine initialised (and the transition phrases warmed) before the first cue is due.
        if let synthesizer { _ = try? synthesizer.clip("1", language: language) }
    }

    /// How long utterances sound, for the planner.
    var timing: SpeechTiming { synthesizer?.timing ?? .estimated }

    /// Speaks the cues among the session's events.
    func handle(_ event: SessionEvent) throws {
        switch event {
        case .telemetry(_, let clock): clockSeconds = max(clockSeconds, clock)
        case .engine(let engineEvent): clockSeconds = max(clockSeconds, engineEvent.time.seconds)
        case .cue(let cue): try say(cue)
        default: break
        }
    }

    /// As `handle`, for live runs that must go on: a failing voice is reported once, then silent.
    func handleReportingFailure(_ event: SessionEvent) {
        do {
            try handle(event)
        } catch {
            if case .off = sink { return }
            let message = (error as? UserFacingError)?.message ?? FileErrorText.reason(error)
            Terminal.warning("runwalk: voice: \(message); no more voice cues")
            sink = .off
        }
    }

    /// Completes the output: the WAV is padded to `sessionSeconds` (its closing cue is never cut).
    func finish(sessionSeconds: Double) throws {
        do {
            switch sink {
            case .wav(let writer): try writer.finish(totalSeconds: sessionSeconds)
            case .speaker(let speaker): try speaker.drain()
            case .off, .text: break
            }
        } catch let error as SpeechError {
            throw UserFacingError.runtime(error.description)
        }
    }

    private func say(_ cue: Cue) throws {
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
            throw UserFacingError.runtime(error.description)
        }
    }

    /// "[4:57.000] 3" — the cue's start on the session clock, then its words.
    static func line(_ cue: Cue) -> String {
        let millis = Int((max(0, cue.atSeconds) * 1000).rounded())
        let text = String(format: "%d:%02d.%03d", millis / 60_000, millis / 1000 % 60, millis % 1000)
        return "[\(text)] \(cue.text)"
    }
}
