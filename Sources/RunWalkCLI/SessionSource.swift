import ArgumentParser
import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkReport

/// Where `export` (and `report --format html`) get a session's summary and track.
///
/// The hidden `--from-replay TRACK --workout SPEC` pair replays a track instead of reading
/// the store; tests use it to run the commands end to end on the sample tracks.
struct SessionSourceOptions: ParsableArguments {
    @Option(name: .customLong("from-replay"), help: .hidden)
    var replayTrack: String?

    @Option(name: .long, help: .hidden)
    var workout: String?

    /// The session named by `session` (`last` or a number).
    func load(session: String) throws -> RecordedSession {
        guard let replayTrack else {
            throw UserFacingError.runtime("no session store in this build yet: cannot load session \(session)")
        }
        guard let workout else { throw UserFacingError.input("--from-replay needs --workout SPEC") }
        let parsed = try WorkoutArgument.parse(workout)
        var track: [TrackPoint] = []
        do {
            let result = try Replay(path: replayTrack, workout: parsed).run(diagnostics: DiagnosticLog(sink: { Terminal.warning($0) })) { event in
                if case .trackPoint(let point) = event { track.append(point) }
            }
            return RecordedSession(summary: result.summary, track: track)
        } catch let error as InputError {
            throw UserFacingError.input(error.description)
        }
    }
}
