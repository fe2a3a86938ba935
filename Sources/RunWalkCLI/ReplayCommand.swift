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
        let choice = try WorkoutArgument.choice(workout)
        // A GPX, TCX or FIT track may carry heart rate; an NMEA track never does.
        try WorkoutArgument.checkHeartRate(choice.workout, hasHeartRateSource: TrackFormat.of(file: track)?.carriesHeartRate ?? false)
        let settings = try session.settings()
        var script: [ScriptedCommand] = []
        if let control {
            do { script = try ScriptedCommand.parseList(control) } catch { throw UserFacingError.input(error.description) }
        }
        let source = "replay:" + (track == "-" ? "stdin" : URL(fileURLWithPath: track).standardizedFileURL.path)
        var request = SessionRequest(workout: choice.request, source: .track(path: track, index: trackIndex, script: script),
                                     settings: settings, clock: .trackTime(speed: speed), defaultVoice: "off",
                                     program: "runwalk", recordedSource: source)
        request.record = !session.noRecord
        request.controlSocket = false
        request.signals = .all
        let prepared = try SessionArguments.prepare(request)
        let handle: SessionHandle
        do { handle = try prepared.start() } catch { throw error.userFacing }
        let outcome = handle.waitForOutcome()
        // A file without a single fix is not a track (issue 18): nothing is kept.
        if let failure = outcome.result.driver.sourceFailure {
            // The file could not be read (to the end): say why, keep what was recorded.
            throw UserFacingError.input(UserText.printable(failure, limit: 400))
        }
        guard outcome.started else {
            let bad = outcome.result.driver.linesBad
            throw UserFacingError.input("\(track): not a track: no fixes found (\(bad) unrecognised line\(bad == 1 ? "" : "s"))")
        }
        // The session is saved whatever becomes of the voice; a voice that failed (a partial WAV)
        // then fails the command.
        try session.report(outcome)
        if let voiceFailure = outcome.voiceFailure { throw UserFacingError.runtime(voiceFailure.message + " (the session itself was saved)") }
    }
}

extension ReplayCommand {
    /// "FILE: not a track: no fixes found (N lines, M unrecognised)".
}

extension Units: ExpressibleByArgument {}

/// Parses a workout argument: "next" (the active plan's next day), a saved or built-in name,
/// else a spec. Spec errors become one line with the column, then the caret.
enum WorkoutArgument {
    /// A workout argument for a session: "next" resolves the active plan's next day (said on
    /// standard error), which the session then marks done or cut short.
    struct Choice {
        var workout: Workout
        var planDay: PlanDay?
        var request: SessionRequest.WorkoutChoice { planDay.map { .planDay($0) } ?? .workout(workout) }
    }

    static func choice(_ spec: String) throws -> Choice {
        guard spec.lowercased() == "next" else { return Choice(workout: try parse(spec)) }
        let day: PlanDay
        do { day = try PlanDay.next() } catch { throw error.userFacing }
        Terminal.warning("runwalk: " + day.announcement)
        return Choice(workout: day.workout, planDay: day)
    }

    static func parse(_ spec: String) throws -> Workout {
        if spec.lowercased() == "next" { return try choice(spec).workout }
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
