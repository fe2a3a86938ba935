import ArgumentParser
import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkStore
import RunWalkTracks

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recorded NMEA track through a workout and print its summary.")

    @Argument(help: "Track file: NMEA 0183, GPX, TCX or FIT, plain or gzip-compressed ('-' for standard input).")
    var track: String

    @Option(name: .customLong("track"), help: "Of a GPX (TCX) file with several tracks (activities), read only the Nth (default: all, each a new segment).")
    var trackIndex: Int?

    @Option(name: .long, help: "Workout spec, e.g. \"5m warmup, 8x(90s run, 60s walk), 5m cooldown\", or a name from `runwalk workouts list`.")
    var workout: String

    @Option(name: .long, help: "Replay speed: 1 is real time; omit for as fast as possible.")
    var speed: Double?

    @OptionGroup var session: SessionArguments

    /// Records the session unless the track cannot be opened (then the replay fails before it starts).
    private func startRecorder(workout: Workout, options: SessionOptions) throws -> SessionRecorder? {
        if track != "-", !FileManager.default.isReadableFile(atPath: track) { return nil }
        let source = "replay:" + (track == "-" ? "stdin" : URL(fileURLWithPath: track).standardizedFileURL.path)
        return StoreAccess.recorder(workout: workout, options: options, source: source)
    }

    func validate() throws {
        try validateSpeed(speed)
        if let trackIndex, trackIndex < 1 { throw ValidationError("--track counts from 1, not \(trackIndex)") }
    }

    func run() throws {
        let parsed = try WorkoutArgument.parse(workout)
        let settings = try session.settings()
        let voiceOutput = try session.voiceOutput(settings, speed: speed)
        let options = session.sessionOptions(settings, voice: voiceOutput)
        var replay = Replay(path: track, workout: parsed, options: options, speed: speed)
        let trackIndex = self.trackIndex
        replay.openReader = { TrackFileReader(path: $0, diagnostics: $1, trackIndex: trackIndex) }
        let recorder = session.noRecord ? nil : try startRecorder(workout: parsed, options: options)
        let result: Replay.Result
        do {
            result = try replay.run(diagnostics: DiagnosticLog(sink: { Terminal.warning($0) })) { event in
                recorder?.record(event)
                try voiceOutput.handle(event)
            }
        } catch {
            // Keep what was recorded as an incomplete session rather than leave it for recovery.
            recorder?.finishFromRecording(state: "incomplete")
            if let error = error as? InputError { throw UserFacingError.input(error.description) }
            if let error = error as? TrackFileError { throw UserFacingError.input(error.description) }
            throw error
        }
        try voiceOutput.finish(sessionSeconds: result.summary.durationSeconds)
        for line in result.diagnostics.closingLines() { Terminal.warning(line) }
        try session.finish(result.summary, recorder: recorder)
    }
}

extension Units: ExpressibleByArgument {}

/// Parses a workout argument: a saved or built-in name, else a spec. Spec errors become one
/// line with the column, then the caret.
enum WorkoutArgument {
    static func parse(_ spec: String) throws -> Workout {
        if let entry = try WorkoutStore.load().entry(named: spec) {
            return try Workout(parsing: entry.spec)
        }
        do {
            return try Workout(parsing: spec)
        } catch {
            throw UserFacingError.input("workout spec: \(error.description)\n\(error.caretLines(spec: spec))")
        }
    }
}
