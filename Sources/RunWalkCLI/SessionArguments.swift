import ArgumentParser
import RunWalkCore
import RunWalkHost
import RunWalkIO
import RunWalkRuntime
import RunWalkStore

/// The options `replay` and `run` share: voice, language, units, cues, output and recording.
/// Voice, language, units and cue kinds default to the settings file (`settings.conf` in the
/// config folder); the options given here override it.
struct SessionArguments: ParsableArguments {
    @Option(name: .long, help: "Voice cues: text (lines on standard error), wav:FILE (the session's voice track), speaker, or off (default: settings.conf, else speaker for run and off for replay).")
    var voice: String?

    @Option(name: .long, help: "Voice language: en or de (default: settings.conf, else en).")
    var language: Language?

    @Option(name: .long, help: "metric or imperial (default: settings.conf, else metric).")
    var units: Units?

    @Option(name: .customLong("cue"), help: ArgumentHelp(
        "Switch one kind of cue on or off, as KIND=on|off; repeatable (default: settings.conf's cue.KIND lines).",
        discussion: "Kinds: \(CueKind.allCases.map(\.rawValue).joined(separator: ", ")); summary is off unless switched on."))
    var cueSwitches: [String] = []

    @Flag(name: .long, help: "Print the summary as JSON on standard output, nothing else there.")
    var json = false

    @Flag(name: .long, help: "Do not record the session.")
    var noRecord = false

    @Flag(name: .long, inversion: .prefixedNo, help: "Standing still for a few seconds pauses the workout; moving resumes it (default: settings.conf's auto_pause, else off).")
    var autoPause: Bool?

    // Music ducking (issue 16): kept apart from the other hands-free options.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "While a cue speaks through the speaker, lower other audio by this many dB, or off (default: settings.conf's duck, else -12).",
        valueName: "off|DB"))
    var duck: String?

    /// The settings file with these options over it.
    func settings() throws -> UserSettings {
        var settings = try WorkoutStore.call { try SettingsFile().load() }
        if let voice { settings.voice = voice }
        if let language { settings.language = language }
        if let units { settings.units = units }
        if let autoPause { settings.autoPause = autoPause }
        if let duck {
            guard let level = DuckLevel.parse(duck) else {
                throw UserFacingError.input("--duck \(UserText.printable(duck)): expected \(DuckLevel.expected)")
            }
            settings.duck = level
        }
        for entry in cueSwitches {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let kind = CueKind(rawValue: parts[0]), ["on", "off"].contains(parts[1]) else {
                throw UserFacingError.input("--cue \(UserText.printable(entry)): expected KIND=on or KIND=off, KIND one of \(CueKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            settings.cues[kind] = parts[1] == "on"
        }
        return settings
    }

    /// Prepares the session `request` asks for; the service's failures become the CLI's exit codes.
    static func prepare(_ request: SessionRequest) throws -> PreparedSession {
        do { return try SessionService.prepare(request, say: { Terminal.warning($0) }) } catch { throw error.userFacing }
    }

    /// Prints the stored summary: JSON with `--json`, else the text table.
    /// A recording that could not be saved whole (disk full, read-only) makes the command exit 1
    /// after the summary, saying what was lost and where the summary was kept instead.
    func report(_ outcome: SessionHandle.Outcome) throws {
        if let failure = outcome.failure { throw failure.userFacing }
        guard let summary = outcome.summary, let summaryJSON = outcome.summaryJSON else { return }
        Terminal.out(json ? summaryJSON : SummaryText.render(summary))
        if let stored = outcome.stored, stored.rowsLost > 0 || stored.sessionID == nil {
            throw UnsavedSession.report(stored, summaryJSON: summaryJSON)
        }
    }
}

extension SessionFailure {
    /// The CLI's error for this failure: exit 2 for the runner's input, 1 for the rest.
    var userFacing: UserFacingError {
        kind == .input ? .input(message) : .runtime(message)
    }
}

extension Language: ExpressibleByArgument {}

/// `--speed`, when given, must be in `ClockSpeed.range`.
func validateSpeed(_ speed: Double?) throws {
    if let speed, let problem = ClockSpeed.problem(String(speed)) { throw ValidationError(problem) }
}
