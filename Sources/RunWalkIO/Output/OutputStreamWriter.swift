#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why output could not be written.
public enum OutputError: Error, Equatable, CustomStringConvertible {
    /// `write(2)` failed: the reader went away (EPIPE), the disk is full (ENOSPC), …
    case writeFailed(destination: String, reason: String)

    public var description: String {
        switch self {
        case .writeFailed(let destination, let reason): return "cannot write to \(destination): \(reason)"
        }
    }
}

/// A large byte buffer in front of a file descriptor, written with `write(2)`.
///
/// Formatters append bytes straight into the buffer (`reserve`, then `advance`); a full buffer
/// goes out in as few system calls as the kernel allows. Interrupted and partial writes are
/// retried; any other failure (EPIPE, ENOSPC, EIO) is thrown as an `OutputError`, never a trap,
/// so the command can say so once and exit 1. Ignore SIGPIPE in the process to get EPIPE.
public struct OutputStreamWriter: ~Copyable {
    /// Where the bytes go, for messages (`standard output`).
    public let destination: String
    private let fd: Int32
    private let capacity: Int
    private let buffer: UnsafeMutablePointer<UInt8>
    private var count = 0

    /// A writer to `fd` with a buffer of `capacity` bytes (1 MiB by default).
    public init(fd: Int32, destination: String, capacity: Int = 1 << 20) {
        self.fd = fd
        self.destination = destination
        self.capacity = max(4096, capacity)
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { buffer.deallocate() }

    /// Makes room for at least `bytes` bytes (at most 4096) and returns where to write them;
    /// call `advance(by:)` with how many were written.
    @inline(__always)
    public mutating func reserve(_ bytes: Int) throws(OutputError) -> UnsafeMutablePointer<UInt8> {
        if capacity - count < bytes { try flush() }
        return buffer + count
    }

    /// Commits `bytes` bytes written at the pointer `reserve` returned.
    @inline(__always)
    public mutating func advance(by bytes: Int) { count += bytes }

    /// Appends text.
    public mutating func write(_ text: String) throws(OutputError) {
        for byte in text.utf8 {
            if count == capacity { try flush() }
            buffer[count] = byte
            count += 1
        }
    }

    /// Writes out everything buffered.
    public mutating func flush() throws(OutputError) {
        var offset = 0
        while offset < count {
            let n = systemWrite(fd, buffer + offset, count - offset)
            if n < 0 {
                let code = errno
                if code == EINTR || code == EAGAIN { continue }
                count = 0
                throw .writeFailed(destination: destination, reason: DescriptorWriter.reason(code))
            }
            offset += n
        }
        count = 0
    }
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, bytes, count)
    #else
    return Darwin.write(fd, bytes, count)
    #endif
}
