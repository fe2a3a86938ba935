#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import RunWalkCore
import RunWalkIO
import RunWalkRuntime

/// The one way to the standard streams: write(2) through `DescriptorWriter`, never a trap.
///
/// A stream that fails (a closed pipe, `/dev/full`, a closed descriptor) is reported once on
/// standard error, if that still works, and remembered: the command then exits 1
/// (`main.swift` asks `failure`). Warnings never throw, so a live workout goes on when its
/// status output fails. Messages have their control characters escaped, so bytes from an input
/// file cannot drive the terminal.
enum Terminal {
    /// A standard stream.
    enum Stream: Sendable {
        case output, error

        var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
        var name: String { self == .output ? "standard output" : "standard error" }
    }

    /// Thrown by `write(_:)` when standard output has failed (already reported).
    struct OutputFailed: Error {}

    private static let state = StreamState()

    /// `runwalk: error: MESSAGE` on standard error.
    static func error(_ message: String) {
        send(Array(("runwalk: error: " + UserText.escapingControls(message) + "\n").utf8), to: .error)
    }

    /// One line on standard error; never throws (a failure is remembered, see `failure`).
    static func warning(_ line: String) {
        send(Array((UserText.escapingControls(line) + "\n").utf8), to: .error)
    }

    /// One line of the command's output on standard output (a failure is remembered).
    static func out(_ text: String) {
        send(Array((text + "\n").utf8), to: .output)
    }

    /// The command's output as bytes; throws `OutputFailed` when standard output fails, so a
    /// long output stops at the first failed write.
    static func write(_ bytes: [UInt8]) throws {
        send(bytes, to: .output)
        if state.failed(.output) { throw OutputFailed() }
    }

    /// Whether standard error has failed: a live loop can stop producing status lines.
    static var standardErrorFailed: Bool { state.failed(.error) }

    /// Whether any stream failed during the command (it must then exit 1).
    static var anyFailed: Bool { state.failed(.output) || state.failed(.error) }

    /// Makes sure descriptors 0, 1 and 2 are open before anything else opens a file: with
    /// `>&-` the database would otherwise be opened as descriptor 1 and receive the output.
    /// A closed stream gets /dev/null opened the other way round (standard input for writing,
    /// the outputs for reading), so that every read or write on it still fails with EBADF, as
    /// on the closed descriptor: whatever writes the output (this type, a buffered writer, a
    /// converter) reports it once and the command exits 1.
    static func guardStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_WRONLY : O_RDONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// Whether `path` names standard output (`-o /dev/stdout`): written through `write(_:)`,
    /// not reopened, so that a closed or failing standard output is reported like `-o -`.
    static func isStandardOutput(_ path: String) -> Bool {
        path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1"
    }

    /// A question on standard error, with no line end (the answer follows on the same line).
    static func prompt(_ text: String) {
        send(Array(text.utf8), to: .error)
    }

    private static func send(_ bytes: [UInt8], to stream: Stream) {
        guard !state.failed(stream) else { return }
        guard let code = DescriptorWriter.write(bytes, to: stream.descriptor) else { return }
        guard state.markFailed(stream) else { return }
        if stream == .output, !state.failed(.error) {
            send(Array("runwalk: error: cannot write to \(stream.name): \(DescriptorWriter.reason(code))\n".utf8), to: .error)
        }
    }
}

/// Which streams failed; shared by every thread that writes (the recorder's writer warns too).
private final class StreamState: @unchecked Sendable {
    private let lock = Lock()
    private var failedStreams: Set<Int32> = []

    func failed(_ stream: Terminal.Stream) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return failedStreams.contains(stream.descriptor)
    }

    /// True for the first failure of `stream` (the one to report).
    func markFailed(_ stream: Terminal.Stream) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return failedStreams.insert(stream.descriptor).inserted
    }
}

/// An error for the user: one clear line, and the exit code it maps to.
struct UserFacingError: Error {
    var message: String
    var exitCode: Int32

    static func input(_ message: String) -> UserFacingError { UserFacingError(message: message, exitCode: 2) }
    static func runtime(_ message: String) -> UserFacingError { UserFacingError(message: message, exitCode: 1) }
}
