import Foundation
import RunWalkGPS
import RunWalkRuntime
import RunWalkCore
import RunWalkIO
import RunWalkReport
import RunWalkTestSupport
@testable import RunWalkTracks

/// Track files written by the tests, read back through `TrackFileReader`.
enum TrackFiles {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh folder under the temporary directory.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-tracks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// What reading a file gave.
    struct Read {
        var fixes: [Fix]
        var warnings: [String]
        var format: TrackFormat?
        var compressed: Bool
    }

    /// Writes `bytes` to a file called `name` and reads it.
    static func read(_ bytes: [UInt8], name: String, track: Int? = nil) throws -> Read {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return try read(path: file.path, track: track)
    }

    /// Reads the file at `path`.
    static func read(path: String, track: Int? = nil) throws -> Read {
        let lines = Lines()
        var reader = TrackFileReader(path: path, diagnostics: DiagnosticLog(sink: { lines.append($0) }), trackIndex: track)
        var fixes: [Fix] = []
        try reader.read { fixes.append($0) }
        return Read(fixes: fixes, warnings: lines.all, format: reader.format, compressed: reader.compressed)
    }

    /// Lines collected from a sink on any thread.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    /// `bytes` compressed by the gzip command.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let result = try run("/bin/gzip", ["-c"], input: bytes)
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        return result.stdout
    }

    /// Runs a tool with `input` on its standard input.
    static func run(_ tool: String, _ arguments: [String], input: [UInt8] = []) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
        let result = try ChildProcess.run(tool, arguments, standardInput: .data(Data(input)), seconds: 120)
        return (result.status ?? SIGKILL, Array(result.stdoutData), result.stderr)
    }

    /// python3 as the PATH finds it (pyenv's shim first where there is one).
    static var python: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether Garmin's FIT SDK for Python (scripts/test installs it) is there.
    static let hasGarminFIT: Bool = {
        guard let python else { return false }
        return (try? run(python, ["-c", "import garmin_fit_sdk"]).status) == 0
    }()

    /// A sample track replayed into a recorded session, as the exports take it.
    static func session(_ name: String, workout: String) async throws -> RecordedSession {
        let path = repositoryRoot.appendingPathComponent("SampleTracks/\(name).nmea").path
        let log = SessionEventLog()
        let result = await SessionLoop.replaying(try Workout(parsing: workout)).replay(track: path, hooks: log.hooks)
        let track = log.events.compactMap { event -> TrackPoint? in
            if case .trackPoint(let point) = event { return point } else { return nil }
        }
        return RecordedSession(summary: result.summary, track: track)
    }
}
