import Dispatch
import FoundationEssentials
import RunWalkIO
#if canImport(Glibc)
import Glibc
#endif

/// The few Unix-socket calls the control server and client share, with errno kept.
enum UnixSocket {
    /// `sun_path` holds 108 bytes, the terminating NUL included.
    static let maxPathBytes = 107

    /// What reading one line from a socket came to.
    enum LineRead: Equatable {
        /// A line, without its newline.
        case line([UInt8])
        /// The peer closed its end; what it sent before (no newline).
        case endOfFile([UInt8])
        case timedOut
        /// More than the limit arrived without a newline.
        case tooLong
        /// The cancel descriptor became readable (the owner is stopping).
        case cancelled
        case failed(Int32)
    }

    /// Calls `body` with `path` as a socket address; nil when the path does not fit.
    static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maxPathBytes else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// A new close-on-exec stream socket, or -1 (errno set).
    static func makeStream() -> Int32 {
        socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// Connects to the socket at `path`: the descriptor, or the errno of the failure.
    static func connect(to path: String) -> Result<Int32, SocketErrno> {
        let fd = makeStream()
        guard fd >= 0 else { return .failure(SocketErrno(call: "socket", code: errno)) }
        let result = withAddress(path) { Glibc.connect(fd, $0, $1) } ?? { errno = ENAMETOOLONG; return -1 }()
        guard result == 0 else {
            let code = errno
            close(fd)
            return .failure(SocketErrno(call: "connect", code: code))
        }
        return .success(fd)
    }

    /// Writes all of `bytes`; false when the peer went away or the write failed.
    /// `send` with MSG_NOSIGNAL: a client that hung up must not kill the session with SIGPIPE.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Reads up to the first newline, at most `limit` bytes, for at most `timeoutSeconds`
    /// (monotonic), giving up early when `cancelFD` becomes readable.
    static func readLine(_ fd: Int32, limit: Int, timeoutSeconds: Double, cancelFD: Int32? = nil) -> LineRead {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeoutSeconds) * 1e9)
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return .timedOut }
            // Round up so a sub-millisecond remainder still waits instead of spinning.
            let waitMs = Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if let cancelFD { fds.append(pollfd(fd: cancelFD, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), waitMs)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            if ready == 0 { continue }  // the deadline check above ends the loop
            if fds.count > 1 && fds[1].revents != 0 { return .cancelled }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failed(errno)
            }
            if count == 0 { return .endOfFile(buffer) }
            buffer.append(contentsOf: chunk[0..<count])
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                guard newline <= limit else { return .tooLong }
                return .line(Array(buffer[..<newline]))
            }
            if buffer.count > limit { return .tooLong }
        }
    }
}

/// A failed system call and its errno.
public struct SocketErrno: Error, Equatable, Sendable {
    /// The call that failed (`connect`, `bind`).
    public var call: String
    /// Its errno.
    public var code: Int32

    /// `connect: Connection refused`.
    public var description: String { "\(call): \(String(cString: strerror(code)))" }
}
