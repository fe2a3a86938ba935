import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A process a test starts, with private data, config, state, cache and runtime folders
/// (`PrivateEnvironment`), in a process group of its own; stopped with everything it started
/// (the group) when the test ends, also on failure (call `stop()` in a `defer`; `deinit` stops it too).
///
/// Started with posix_spawn, not Foundation's `Process`; its standard output and error are read
/// with plain read(2) calls (EINTR retried) on a thread per pipe, not with `FileHandle`'s
/// `readabilityHandler`/`availableData`: those put a libdispatch read source on each pipe, and
/// setting them up and tearing them down from many tests at once crashed the test process in
/// libdispatch's `_dispatch_event_loop_drain` (a use-after-free of its epoll bookkeeping, issue 28),
/// while `availableData` traps on EINTR (a `try!` inside Foundation).
public final class ChildProcess: @unchecked Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// /dev/null (the default: a test's child never reads the user's terminal).
        case null
        /// A file, opened read-only.
        case file(String)
        /// A descriptor of the test process (duplicated; the caller keeps and closes its own).
        case descriptor(Int32)
        /// These bytes, written into a pipe by a thread of its own, then the end of file.
        case data(Data)
    }

    /// What a process run to its end left: its status (nil when it was stopped at the deadline)
    /// and output.
    public struct Result: Sendable {
        public var status: Int32?
        public var stdoutData: Data
        public var stderr: String
        public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    }

    /// The process's ID, which is also its process group's.
    public let pid: pid_t
    /// The private folders it runs with.
    public let folders: PrivateEnvironment
    private let ownsFolders: Bool
    private let output: PipeReader?
    private let error: PipeReader
    private let lock = NSLock()
    private var waitStatus: Int32?

    /// Starts `executable` (a path, or a name looked up on PATH) with `arguments`; standard output
    /// and error are collected. `environment` goes on top of the private folders' variables;
    /// `folders` shares private folders between processes (a fresh set by default, removed at
    /// `stop()`); `standardOutput` sends standard output to a descriptor instead of collecting it;
    /// `blockedSignals` is the child's signal mask (none, as from a shell, unless a test asks for a
    /// threaded parent's mask).
    public init(_ executable: String, _ arguments: [String], currentDirectory: URL? = nil,
                environment: [String: String] = [:], folders: PrivateEnvironment? = nil,
                standardInput: Input = .null, standardOutput: Int32? = nil, blockedSignals: [Int32] = []) throws {
        if let folders { self.folders = folders; ownsFolders = false } else { self.folders = try PrivateEnvironment(); ownsFolders = true }
        let outPipe = standardOutput == nil ? try Self.pipe() : nil
        let errPipe = try Self.pipe()
        var inputBytes: Data?
        let inPipe: (read: Int32, write: Int32)?
        if case .data(let bytes) = standardInput { inPipe = try Self.pipe(); inputBytes = bytes } else { inPipe = nil }
        defer {
            // The child's ends: the child has its copies (or failed to start).
            if let outPipe { close(outPipe.write) }
            close(errPipe.write)
            if let inPipe { close(inPipe.read) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch standardInput {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
        case .data: posix_spawn_file_actions_adddup2(&actions, inPipe?.read ?? -1, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe?.write ?? standardOutput ?? 1, 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)
        // Nothing else of the test process leaks into the child (another test's pipe held open
        // by a long-lived child would never reach its end of file).
        var failed = GlibcExtensions.addClosefrom(&actions, 3)
        if failed == 0, let currentDirectory { failed = GlibcExtensions.addChdir(&actions, currentDirectory.path) }
        guard failed == 0 else {
            if let outPipe { close(outPipe.read) }
            close(errPipe.read)
            if let inPipe { close(inPipe.write) }
            throw ChildProcessError("cannot set up the start of \(executable): \(String(cString: strerror(failed)))")
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own (stop() ends everything in it); no signal blocked (pool threads block
        // SIGTERM, and a child inherits the spawning thread's mask) and every signal's default
        // action, as a shell would start it.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        for signal in blockedSignals { sigaddset(&none, signal) }
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)

        let variables = self.folders.environment(environment).map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let status = Self.withCStrings([executable] + arguments) { argv in
            Self.withCStrings(variables) { envp in
                executable.contains("/")
                    ? posix_spawn(&child, executable, &actions, &attributes, argv, envp)
                    : posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else {
            if let outPipe { close(outPipe.read) }
            close(errPipe.read)
            if let inPipe { close(inPipe.write) }
            if ownsFolders { self.folders.remove() }
            throw ChildProcessError("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        output = outPipe.map { PipeReader($0.read, name: "stdout of \(child)") }
        error = PipeReader(errPipe.read, name: "stderr of \(child)")
        if let inPipe, let inputBytes { Self.write(inputBytes, to: inPipe.write, name: "stdin of \(child)") }
    }

    /// Whether `signal` is blocked in the process (from /proc), for checking the above.
    public func blocks(_ signal: Int32) -> Bool? {
        ProcessSignalState(pid: pid).map { $0.blocked & ProcessSignalState.bit(signal) != 0 }
    }

    /// Whether the process has not ended yet (a stopped process is running).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// What the process wrote to standard error so far.
    public var stderr: String { String(decoding: error.data, as: UTF8.self) }
    /// What the process wrote to standard error so far, as bytes.
    public var stderrData: Data { error.data }
    /// What the process wrote to standard output so far.
    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    /// What the process wrote to standard output so far, as bytes.
    public var stdoutData: Data { output?.data ?? Data() }

    /// The exit status, or for a process a signal ended, the signal's number (as `Process` gave);
    /// nil while it runs.
    public var terminationStatus: Int32? {
        reap(blocking: false).map { status in (status & 0x7f) == 0 ? (status >> 8) & 0xff : status & 0x7f }
    }

    /// The signal that ended the process, if one did.
    public var terminationSignal: Int32? {
        reap(blocking: false).flatMap { status in (status & 0x7f) != 0 ? status & 0x7f : nil }
    }

    /// Sends `signal` to the process (by PID; not to the rest of its group).
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Stops the process and everything in its group (SIGTERM, then SIGKILL after `graceSeconds`),
    /// waits for it and removes its private folders (when they are its own).
    public func stop(graceSeconds: Double = 2) {
        if isRunning {
            kill(-pid, SIGTERM)
            kill(pid, SIGCONT)  // a stopped process (SIGTSTP tests) cannot act on SIGTERM
            let deadline = Date().addingTimeInterval(graceSeconds)
            while isRunning && Date() < deadline { usleep(10_000) }
        }
        // Whatever the group still holds (the process, or what it started and left behind).
        kill(-pid, SIGKILL)
        _ = reap(blocking: true)
        if ownsFolders { folders.remove() }
    }

    /// Waits for the process to exit by itself, up to `seconds`, then for its output to reach its
    /// end (up to `drainSeconds` more: something it started may hold the pipes); returns its
    /// status (see `terminationStatus`), or nil on timeout.
    public func wait(seconds: Double, drainSeconds: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { usleep(10_000) }
        guard let status = terminationStatus else { return nil }
        let drained = Date().addingTimeInterval(drainSeconds)
        _ = output?.waitForEnd(until: drained)
        _ = error.waitForEnd(until: drained)
        return status
    }

    /// Waits until standard error contains `text`, up to `seconds`.
    public func waitForStderr(_ text: String, seconds: Double) -> Bool {
        error.waitFor(text, until: Date().addingTimeInterval(seconds))
    }

    /// Waits until standard output contains `text`, up to `seconds`.
    public func waitForStdout(_ text: String, seconds: Double) -> Bool {
        output?.waitFor(text, until: Date().addingTimeInterval(seconds)) ?? false
    }

    /// Runs `executable` to its end (at most `seconds`, then it and its group are killed) and
    /// returns its status (nil on timeout), standard output and error.
    public static func run(_ executable: String, _ arguments: [String], currentDirectory: URL? = nil,
                           environment: [String: String] = [:], folders: PrivateEnvironment? = nil,
                           standardInput: Input = .null, standardOutput: Int32? = nil,
                           seconds: Double = 120) throws -> Result {
        let child = try ChildProcess(executable, arguments, currentDirectory: currentDirectory, environment: environment,
                                     folders: folders, standardInput: standardInput, standardOutput: standardOutput)
        defer { child.stop(graceSeconds: 0.5) }
        let status = child.wait(seconds: seconds)
        return Result(status: status, stdoutData: child.stdoutData, stderr: child.stderr)
    }

    deinit { stop(graceSeconds: 0.5) }

    /// The wait status once the process has ended (reaped once, kept).
    private func reap(blocking: Bool) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let waitStatus { return waitStatus }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid { waitStatus = status; return status }
            if result == -1 && errno == EINTR { continue }
            if result == -1 { waitStatus = 0x7f00; return waitStatus }  // not our child any more: gone
            return nil
        }
    }

    /// Writes `bytes` into `descriptor` on a thread of its own, then closes it. SIGPIPE is blocked
    /// on that thread, so a child that stops reading ends the writing (EPIPE), not the test process.
    private static func write(_ bytes: Data, to descriptor: Int32, name: String) {
        let thread = Thread {
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < buffer.count {
                    let count = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                    if count > 0 { offset += count } else if count < 0 && errno == EINTR { continue } else { break }
                }
            }
            close(descriptor)
        }
        thread.name = name
        thread.start()
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        guard GlibcExtensions.pipe2(&descriptors, O_CLOEXEC) == 0 else {
            throw ChildProcessError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        return (descriptors[0], descriptors[1])
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}

/// One pipe read to its end on a thread of its own, with plain read(2) (EINTR retried).
final class PipeReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var collected = Data()
    private var ended = false

    init(_ descriptor: Int32, name: String) {
        let thread = Thread { [self] in readToEnd(descriptor) }
        thread.name = name
        thread.start()
    }

    /// What was read so far.
    var data: Data { condition.withLock { collected } }

    /// Waits for the end of file, up to `deadline`; whether it came.
    func waitForEnd(until deadline: Date) -> Bool {
        condition.withLock {
            while !ended { if !condition.wait(until: deadline) { break } }
            return ended
        }
    }

    /// Waits until what was read contains `text`, or the end of file, or `deadline`.
    func waitFor(_ text: String, until deadline: Date) -> Bool {
        condition.withLock {
            while !String(decoding: collected, as: UTF8.self).contains(text) {
                if ended || !condition.wait(until: deadline) { return String(decoding: collected, as: UTF8.self).contains(text) }
            }
            return true
        }
    }

    private func readToEnd(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                condition.withLock {
                    collected.append(contentsOf: buffer[0..<count])
                    condition.broadcast()
                }
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break  // the end of file, or an error that ends the reading all the same
            }
        }
        close(descriptor)
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }
}

/// A process that could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
