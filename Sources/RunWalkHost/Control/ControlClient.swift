import FoundationEssentials
import RunWalkIO
#if canImport(Glibc)
import Glibc
#endif

/// Sends one request to the running session's control socket and reads its answer.
public struct ControlClient: Sendable {
    /// The socket's path.
    public let path: String
    /// How long to wait for the answer; longer than the server's wait for a command's effect.
    public var timeoutSeconds: Double

    /// A client for the socket at `path`.
    public init(path: String, timeoutSeconds: Double = 5) {
        self.path = path
        self.timeoutSeconds = timeoutSeconds
    }

    /// The client for this user's session (the folder is only checked, never created).
    public static func forSession(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ControlSocketError) -> ControlClient {
        ControlClient(path: try ControlSocketPath.resolve(environment: environment, create: false))
    }

    /// Sends `request` and returns the session's answer.
    public func send(_ request: ControlRequest) throws(ControlClientError) -> ControlResponse {
        let fd: Int32
        switch UnixSocket.connect(to: path) {
        case .success(let connected): fd = connected
        case .failure(let failure) where [ENOENT, ECONNREFUSED, ENOTDIR].contains(failure.code):
            // No socket, or one a crashed session left: either way nobody is listening.
            throw .noSession(path: path)
        case .failure(let failure): throw .system(path: path, failure)
        }
        defer { close(fd) }
        guard UnixSocket.writeAll(fd, Array((request.word + "\n").utf8)) else {
            throw .system(path: path, SocketErrno(call: "send", code: errno))
        }
        switch UnixSocket.readLine(fd, limit: 1 << 20, timeoutSeconds: timeoutSeconds) {
        case .line(let bytes), .endOfFile(let bytes):
            if bytes.isEmpty { throw .badAnswer(path: path, "the session closed the connection without an answer") }
            guard let response = ControlResponse.decode(bytes) else {
                throw .badAnswer(path: path, "not a control answer: \(String(decoding: bytes.prefix(80), as: UTF8.self))")
            }
            return response
        case .timedOut: throw .timedOut(path: path, seconds: timeoutSeconds)
        case .tooLong: throw .badAnswer(path: path, "the answer is longer than 1 MB")
        case .cancelled: throw .badAnswer(path: path, "cancelled")
        case .failed(let code): throw .system(path: path, SocketErrno(call: "recv", code: code))
        }
    }
}

/// Why a control request got no answer.
public enum ControlClientError: Error, Equatable, CustomStringConvertible {
    /// Nothing listens on the socket: no session is running.
    case noSession(path: String)
    /// The session did not answer in time.
    case timedOut(path: String, seconds: Double)
    /// The answer was not the protocol's JSON line.
    case badAnswer(path: String, String)
    /// A system call failed.
    case system(path: String, SocketErrno)

    /// One line for standard error.
    public var description: String {
        switch self {
        case .noSession: "no session is running"
        case .timedOut(let path, let seconds): "\(path): the session did not answer within \(seconds) s"
        case .badAnswer(let path, let why): "\(path): \(why)"
        case .system(let path, let failure): "\(path): \(failure.description)"
        }
    }
}
