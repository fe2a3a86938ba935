import Foundation
import Testing
import RunWalkTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `runwalk` on a real pseudo-terminal (util-linux `script`), driven like a person at a prompt:
/// the test waits for the question to appear, and only then answers.
///
/// Writing the answer before the prompt raced `script` and the terminal: now and then the
/// answer never reached `runwalk`, which then waited forever. Every wait here has a deadline;
/// when it passes, `runwalk` (its process group: `script` makes it a session leader) and
/// `script` are killed by PID and an issue is recorded with everything read, so a lost answer
/// fails the test instead of hanging it.
final class PseudoTerminalRun {
    /// util-linux `script`, when installed.
    static let script = ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// How long any one wait may take.
    static let deadlineSeconds = 20.0

    /// The `script` process (ChildProcess: private folders, a process group of its own).
    let process: ChildProcess
    private let input = Pipe()
    private let output = Pipe()
    private var transcript = Data()
    private var reachedEnd = false
    private var killed = false

    /// Everything the terminal showed so far (standard output and error, and the echo of answers).
    var text: String { String(decoding: transcript, as: UTF8.self) }

    /// Starts `runwalk ARGUMENTS` in `folder` on a new pseudo-terminal. `blockedSignals` is the
    /// signal mask it inherits (through `script`), whatever the mask of the thread running the
    /// test: empty, as from a shell, unless a test asks for a threaded parent's mask.
    init(_ arguments: [String], folder: TemporaryDataFolder, environment: [String: String],
         blockedSignals: [Int32] = []) throws {
        let script = try #require(Self.script, "util-linux script is not installed")
        let command = "exec " + ([RunWalkBinary.url.path] + arguments).map(Self.shellQuoted).joined(separator: " ")
        var launch = folder.process(["-qec", command, "/dev/null"], extraEnvironment: environment)
        launch.executable = script
        // The terminal's output comes through `output` (script's own errors are in process.stderr).
        process = try ChildProcess(launch.executable, launch.arguments, currentDirectory: launch.currentDirectory,
                                   environment: launch.environment, folders: launch.folders,
                                   standardInput: .descriptor(input.fileHandleForReading.fileDescriptor),
                                   standardOutput: output.fileHandleForWriting.fileDescriptor, blockedSignals: blockedSignals)
        // The child has its copies: the output ends when script exits.
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
    }

    deinit {
        if process.isRunning { killAll() }
        try? input.fileHandleForWriting.close()
        process.stop(graceSeconds: 0.5)
    }

    /// Reads until the terminal shows `expected`; false (with an issue recorded and the
    /// processes killed) when the output ends first or the deadline passes.
    @discardableResult
    func waitFor(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let deadline = Date().addingTimeInterval(Self.deadlineSeconds)
        while !text.contains(expected) {
            guard !reachedEnd else {
                Issue.record("the output ended before \"\(expected)\" appeared; read: \(text.debugDescription)", sourceLocation: sourceLocation)
                return false
            }
            guard readSome(until: deadline) else {
                killAll()
                Issue.record("no \"\(expected)\" within \(Self.deadlineSeconds) s: killed runwalk and script; read: \(text.debugDescription)",
                             sourceLocation: sourceLocation)
                return false
            }
        }
        return true
    }

    /// Types `line` and Return.
    func answer(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Reads to the end of the output and returns `script`'s exit status (with `-e`, the
    /// command's: 128 + N when a signal N ended it); nil, with an issue recorded and the
    /// processes killed, when the deadline passes first.
    func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) -> Int32? {
        let deadline = Date().addingTimeInterval(Self.deadlineSeconds)
        while !reachedEnd {
            guard readSome(until: deadline) else {
                killAll()
                Issue.record("runwalk did not end within \(Self.deadlineSeconds) s: killed it and script; read: \(text.debugDescription)",
                             sourceLocation: sourceLocation)
                return nil
            }
        }
        // The output ends when `script` exits (it holds the pipe to the end).
        let status = process.wait(seconds: Self.deadlineSeconds, drainSeconds: 0)
        try? input.fileHandleForWriting.close()
        return killed ? nil : status
    }

    /// The `runwalk` process: `script`'s child (the shell it starts `exec`s runwalk).
    var runwalkPID: pid_t? {
        let parent = process.pid
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for name in names {
            guard let pid = pid_t(name) else { continue }
            let stat = procFileText("/proc/\(pid)/stat")
            // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses.
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == parent { return pid }
        }
        return nil
    }

    /// Waits up to the deadline for output; false when none came in time.
    private func readSome(until deadline: Date) -> Bool {
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            let milliseconds = Int32(max(0, min(deadline.timeIntervalSinceNow * 1000, 60_000)))
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count > 0 { transcript.append(contentsOf: buffer[..<count]) } else { reachedEnd = true }
            return true
        }
    }

    /// SIGKILL to runwalk's process group, runwalk and script, by PID; then drains the output.
    private func killAll() {
        killed = true
        if let child = runwalkPID {
            if getpgid(child) == child { kill(-child, SIGKILL) }
            kill(child, SIGKILL)
        }
        kill(process.pid, SIGKILL)
        let deadline = Date().addingTimeInterval(5)
        while !reachedEnd && readSome(until: deadline) {}
        process.stop(graceSeconds: 0)
    }

    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
