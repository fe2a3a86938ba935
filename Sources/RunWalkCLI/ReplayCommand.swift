import ArgumentParser
import FoundationEssentials
import RunWalkCore
import RunWalkHost
import RunWalkGPS
import RunWalkIO
import RunWalkRuntime
import RunWalkStore
import RunWalkTracks

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recorded track (NMEA, GPX, TCX or FIT) through a workout and print its summary.")

    @Argument(help: "Track file: NMEA 0183, GPX, TCX or FIT, plain or gzip-compressed ('-' for standard input).")
    var track: String

    @Option(name: .customLong("track"), help: "Of a GPX (TCX) file with several tracks (activities), read only the Nth (default: all, each a new segment).")
    var trackIndex: Int?

    @Option(name: .long, help: "Workout spec, e.g. \"5m warmup, 8x(90s run, 60s walk), 5m cooldown\", or a name from `runwalk workouts list`.")
    var workout: String

    @Option(name: .long, help: "Replay speed: 1 is real time; omit for as fast as possible.")
    var speed: Double?

    @Option(name: .long, help: ArgumentHelp(
        "Commands at moments of the track, e.g. \"pause@5:00,resume@6:30,skip@12:00\".",
        discussion: "Times are from the workout's start on the track's clock (pauses included): SS, M:SS or H:MM:SS. Commands: pause, resume, toggle, skip, restart, stop."))
    var control: String?

    @OptionGroup var session: SessionArguments

    func validate() throws {
        try validateSpeed(speed)
        if let trackIndex, trackIndex < 1 { throw ValidationError("--track counts from 1, not \(trackIndex)") }
    }

    func run() throws {
        let parsed = try WorkoutArgument.parse(workout)
        // A GPX, TCX or FIT track may carry heart rate; an NMEA track never does.
        try WorkoutArgument.checkHeartRate(parsed, hasHeartRateSource: TrackFormat.of(file: track)?.carriesHeartRate ?? false)
        let settings = try session.settings()
        var script: [ScriptedCommand] = []
        if let control {
            do { script = try ScriptedCommand.parseList(control) } catch { throw UserFacingError.input(error.description) }
        }
        if track != "-" {
            do { try NMEAFileSource.checkReadable(track) } catch { throw UserFacingError.input(error.description) }
        }
        let voiceOutput = try session.voiceOutput(settings, defaultVoice: "off", speed: speed)
        let options = session.sessionOptions(settings, voice: voiceOutput)
        let loop = SessionLoop.replaying(parsed, options: options, script: script, autoPause: session.autoPause(settings))
        let source = "replay:" + (track == "-" ? "stdin" : URL(fileURLWithPath: track).standardizedFileURL.path)
        let host = SessionHost(voice: voiceOutput, recorder: session.noRecord ? nil : {
            StoreAccess.recorder(workout: parsed, options: options, source: source)
        })
        let control = SessionControl()
        SignalCommands.install(control: control)
        let path = track, speed = self.speed
        let hooks = host.hooks(message: { Terminal.warning($0) })
        let trackIndex = self.trackIndex
        let result = SessionHost.wait { await loop.replay(track: path, speed: speed, trackIndex: trackIndex, control: control, hooks: hooks) }
        // A file without a single fix is not a track (issue 18): nothing is kept.
        if let failure = result.driver.sourceFailure {
            // The file could not be read (to the end): say why, keep what was recorded.
            guard result.started else { throw UserFacingError.input(UserText.printable(failure, limit: 400)) }
            host.recorder?.finishFromRecording(state: .incomplete)
            throw UserFacingError.input(UserText.printable(failure, limit: 400))
        }
        guard result.started else {
            host.recorder?.discard()
            let bad = result.driver.linesBad
            throw UserFacingError.input("\(track): not a track: no fixes found (\(bad) unrecognised line\(bad == 1 ? "" : "s"))")
        }
        let recorded = try session.record(result.summary, recorder: host.recorder)
        SignalCommands.sessionSaved()
        // The session is saved whatever becomes of the voice; a voice that failed (a partial WAV)
        // then fails the command.
        var voiceFailure: VoiceOutputError?
        do {
            try voiceOutput.finish(sessionSeconds: result.summary.durationSeconds, stopped: result.driver.stopRequested)
        } catch { voiceFailure = error }
        try session.report(recorded)
        if let voiceFailure { throw UserFacingError.runtime(voiceFailure.message + " (the session itself was saved)") }
    }
}

extension ReplayCommand {
    /// "FILE: not a track: no fixes found (N lines, M unrecognised)".
}

extension Units: ExpressibleByArgument {}

/// Parses a workout argument: "next" (the active plan's next day), a saved or built-in name,
/// else a spec. Spec errors become one line with the column, then the caret.
enum WorkoutArgument {
    static func parse(_ spec: String) throws -> Workout {
        if spec.lowercased() == "next" { return try PlanFollowing.resolveNext() }
        // A bad line in workouts.txt stops only the command that names its workout.
        let file = try WorkoutStore.loadLeniently()
        if let entry = file.library.entry(named: spec) {
            return try Workout(parsing: entry.spec)
        }
        if let bad = file.problems.first(where: { $0.name != nil && $0.name == spec.lowercased() }) {
            throw UserFacingError.input(bad.error.description)
        }
        do {
            return try Workout(parsing: spec)
        } catch {
            throw UserFacingError.input("workout spec: \(error.description)\n\(error.caretLines(spec: spec))")
        }
    }

    /// Refuses a workout whose `until hr` phases cannot end without a heart rate (issue 33).
    /// A strap (`--hr`, `hr =`) or a GPX, TCX or FIT track is a source; an NMEA track is not.
    static func checkHeartRate(_ workout: Workout, hasHeartRateSource: Bool) throws {
        if let problem = workout.heartRateProblem(hasHeartRateSource: hasHeartRateSource) {
            throw UserFacingError.input(problem)
        }
    }
}
