import ArgumentParser
import RunWalkCore
import RunWalkIO
import RunWalkStore

/// The options `replay` and `run` share: voice, language, units, output and recording.
struct SessionArguments: ParsableArguments {
    @Option(name: .long, help: "Voice cues: text (lines on standard error), wav:FILE (the session's voice track), speaker, or off.")
    var voice: String = "off"

    @Option(name: .long, help: "Voice language: en or de.")
    var language: Language = .en

    @Option(name: .long, help: "metric or imperial.")
    var units: Units = .metric

    @Flag(name: .long, help: "Print the summary as JSON on standard output, nothing else there.")
    var json = false

    @Flag(name: .long, help: "Do not record the session.")
    var noRecord = false

    /// The voice output the options ask for (speaker falls back to text when no audio server answers).
    func voiceOutput(speed: Double?) throws -> VoiceOutput {
        try VoiceOutput(try VoiceArgument.parse(voice), language: language, speed: speed)
    }

    /// Session options for these units and this language, with the voice's speech timing.
    func sessionOptions(voice: VoiceOutput) -> SessionOptions {
        var options = SessionOptions()
        options.units = units
        options.language = language
        options.speechTiming = voice.timing
        return options
    }

    /// Hands the summary to the store (exactly as printed, so `runwalk report --format json`
    /// repeats it) and prints it: JSON with `--json`, else the text table.
    func finish(_ summary: Summary, recorder: SessionRecorder?) throws {
        let summaryJSON = try SummaryJSON.encode(summary)
        recorder?.finish(summary: summary, summaryJSON: summaryJSON)
        Terminal.out(json ? summaryJSON : SummaryText.render(summary))
    }
}

/// `--speed` must be a positive finite number when given.
func validateSpeed(_ speed: Double?) throws {
    if let speed, !(speed > 0 && speed.isFinite) {
        throw ValidationError("--speed must be a number above zero, not \(speed)")
    }
}
