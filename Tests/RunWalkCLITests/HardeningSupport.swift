import Foundation
import RunWalkStore

/// Runs `runwalk` inside bash, for the redirections the reproducers use
/// (`> /dev/full`, `>&-`, `trap '' PIPE`, `umask 000`).
extension TemporaryDataFolder {
    /// A config folder beside the data folder (created on first use by the command).
    var configURL: URL { url.appendingPathComponent("config") }

    /// `script` in bash with `$RUNWALK` the binary and this folder's data and config folders.
    func shell(_ script: String, standardOutput: FileHandle? = nil) throws -> RunWalkBinary.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = RunWalkBinary.repositoryRoot
        process.environment = environment.merging(["RUNWALK": RunWalkBinary.url.path,
                                                   "RUNWALK_CONFIG_DIR": configURL.path]) { _, new in new }
        guard let standardOutput else { return try RunWalkBinary.collect(process) }
        // Standard output given by the test (a pipe whose reader is gone); only stderr is read.
        let err = Pipe()
        process.standardOutput = standardOutput
        process.standardError = err
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunWalkBinary.Output(status: process.terminationStatus, stdout: "", stderr: String(decoding: stderr, as: UTF8.self))
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
