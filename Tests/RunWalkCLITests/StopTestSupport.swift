import Foundation
import RunWalkTestSupport
import RunWalkCore
import RunWalkHost
import RunWalkIO
import RunWalkRuntime

/// A `runwalk` process with folders of its own (data, config, XDG_*, the control socket), its
/// standard output and error in files, killed by its PID when the test ends (also on failure:
/// call `kill()` in a `defer`; `deinit` does too).
final class PrivateRunwalk {
    let folder: String
    /// The process, once started (through the tests' one harness: its own process group).
    private(set) var process: ChildProcess?
    private(set) var began = Date()

    var socket: String { folder + "/control.sock" }
    var outputPath: String { folder + "/stdout" }

    /// The private folders of every runwalk this test starts (the process and `control`, `report`).
    var environment: [String: String] {
        var environment: [String: String] = [:]
        for name in ["RUNWALK_DATA_DIR", "RUNWALK_CONFIG_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"] {
            environment[name] = folder + "/" + name.lowercased()
        }
        environment[ControlSocketPath.overrideVariable] = socket
        return environment
    }

    /// Makes the folders; `start` starts the process. A short path: a socket path has 107 bytes.
    init() throws {
        folder = "/tmp/rwstop-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        for name in ["runwalk_data_dir", "runwalk_config_dir", "xdg_data_home", "xdg_config_home", "xdg_state_home", "xdg_runtime_dir"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    /// Starts `runwalk arguments`; standard output goes to the descriptor `output` when given (else
    /// a file), standard input comes from the descriptor `input` when given (else /dev/null).
    func start(_ arguments: [String], input: Int32? = nil, output: Int32? = nil) throws {
        let file = output == nil ? open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) : -1
        defer { if file >= 0 { close(file) } }
        began = Date()
        process = try ChildProcess(RunWalkBinary.url.path, arguments, currentDirectory: RunWalkBinary.repositoryRoot,
                                   environment: environment, standardInput: input.map { .descriptor($0) } ?? .null,
                                   standardOutput: output ?? file)
    }

    var pid: Int32 { process?.pid ?? 0 }
    var isRunning: Bool { process?.isRunning ?? false }
    var stdout: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var stderr: String { process?.stderr ?? "" }

    func send(_ signal: Int32) {
        process?.send(signal)
    }

    /// Waits up to `seconds` for the process to exit; its status, or nil if it still runs.
    func wait(seconds: Double) -> Int32? {
        process?.wait(seconds: seconds)
    }

    /// Waits up to `seconds` until standard error contains `text`.
    func waitForStderr(_ text: String, seconds: Double = 20) -> Bool {
        process?.waitForStderr(text, seconds: seconds) ?? false
    }

    /// `runwalk ARGUMENTS` with the same folders, to its end.
    func runwalk(_ arguments: [String]) throws -> RunWalkBinary.Output {
        try RunWalkBinary.run(arguments, environment: environment)
    }

    /// The running session's status over its control socket.
    func status() -> SessionStatus? {
        guard let answer = try? runwalk(["control", "status", "--json"]), answer.status == 0 else { return nil }
        return try? JSONDecoder().decode(SessionStatus.self, from: Data(answer.stdout.utf8))
    }

    /// Waits up to `seconds` for a status that meets `condition`.
    func waitForStatus(seconds: Double = 20, _ condition: (SessionStatus) -> Bool) -> SessionStatus? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, isRunning {
            if let current = status(), condition(current) { return current }
            usleep(50_000)
        }
        return nil
    }

    /// The last recorded session's summary (`report last --format json`) and what `report` said on standard error.
    func lastSession() throws -> (summary: Summary?, stderr: String) {
        let report = try runwalk(["report", "last", "--format", "json"])
        return (report.status == 0 ? try SummaryJSON.decode(report.stdout) : nil, report.stderr)
    }

    /// Kills the process and its group (SIGKILL) and waits for it.
    func kill() {
        process?.stop(graceSeconds: 0)
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// A pipe whose buffer is full and which nobody reads: a process that writes to it blocks
/// (standard output while the summary is written).
final class FullPipe {
    let pipe = Pipe()

    init() {
        let fd = pipe.fileHandleForWriting.fileDescriptor
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0x2E, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        // Less than a page may be left: filled byte by byte.
        var byte: UInt8 = 0x2E
        while write(fd, &byte, 1) > 0 {}
        // Blocking again: the child shares this open file, and its writes must wait, not fail.
        _ = fcntl(fd, F_SETFL, flags)
    }
}
