import Foundation

/// A process a test starts; stopped by its PID when the test ends, also on failure
/// (call `stop()` in a `defer`, and `deinit` stops it too).
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    private let lock = NSLock()
    private var errorText = Data()
    private var outputText = Data()

    /// Starts `executable` with `arguments`; standard output and error are collected.
    public init(_ executable: String, _ arguments: [String], currentDirectory: URL? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.outputText.append(data) }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.errorText.append(data) }
        }
        // Children inherit the spawning thread's signal mask, and pool threads block SIGTERM:
        // unblock it (and SIGINT) around the spawn so `stop()` and signal tests reach the child.
        var unblock = sigset_t(), previous = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTERM)
        sigaddset(&unblock, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblock, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    /// Whether `signal` is blocked in the process (from /proc), for checking the above.
    public func blocks(_ signal: Int32) -> Bool? {
        ProcessSignalState(pid: pid).map { $0.blocked & ProcessSignalState.bit(signal) != 0 }
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// What the process wrote to standard error so far.
    public var stderr: String { lock.withLock { String(decoding: errorText, as: UTF8.self) } }
    /// What the process wrote to standard output so far.
    public var stdout: String { lock.withLock { String(decoding: outputText, as: UTF8.self) } }

    /// Sends `signal` to the process (by PID).
    public func send(_ signal: Int32) {
        if process.isRunning { kill(pid, signal) }
    }

    /// Stops the process (SIGTERM, then SIGKILL after `graceSeconds`) and waits for it.
    public func stop(graceSeconds: Double = 2) {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(graceSeconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits for the process to exit by itself, up to `seconds`; returns its status, or nil on timeout.
    public func wait(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        // Let the pipes drain.
        Thread.sleep(forTimeInterval: 0.1)
        return process.terminationStatus
    }

    /// Waits until standard error contains `text`, up to `seconds`.
    public func waitForStderr(_ text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if stderr.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return stderr.contains(text)
    }

    deinit { stop(graceSeconds: 0.5) }
}
