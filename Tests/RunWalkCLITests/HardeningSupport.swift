import Foundation
import RunWalkStore
import RunWalkTestSupport

/// Runs `runwalk` inside bash, for the redirections the reproducers use
/// (`> /dev/full`, `>&-`, `trap '' PIPE`, `umask 000`).
extension TemporaryDataFolder {
    /// A config folder beside the data folder (created on first use by the command).
    var configURL: URL { url.appendingPathComponent("config") }

    /// `script` in bash with `$RUNWALK` the binary and this folder's data and config folders.
    func shell(_ script: String, standardOutput: Int32? = nil) throws -> RunWalkBinary.Output {
        var launch = process(["-c", script], extraEnvironment: ["RUNWALK": RunWalkBinary.url.path, "RUNWALK_CONFIG_DIR": configURL.path])
        launch.executable = "/bin/bash"
        // Standard output given by the test (a pipe whose reader is gone); only stderr is read.
        launch.standardOutput = standardOutput
        return try RunWalkBinary.collect(launch)
    }

    /// Records the demo track once, so that history, report and export have a session.
    func recordDemo() throws {
        let replay = try run(["replay", Sample.demo, "--workout", Sample.demoWorkout])
        guard replay.status == 0 else { throw HardeningTestError(message: "replay failed: \(replay.stderr)") }
    }

    /// The permission bits of `path` (lstat: a symlink's own).
    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }
}

struct HardeningTestError: Error { var message: String }

/// Whether stderr shows a crash rather than an error message.
func looksLikeCrash(_ output: RunWalkBinary.Output) -> Bool {
    output.status > 128 || output.stderr.contains("Fatal error") || output.stderr.contains("Program crashed")
        || output.stderr.contains("Error Domain=")
}
