#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read.
public enum InputError: Error, Equatable, CustomStringConvertible {
    case notFound(path: String)
    case unreadable(path: String, reason: String)
    case isDirectory(path: String)

    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file"
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .isDirectory(let path): return "\(path): is a directory, not a track file"
        }
    }
}

/// Reads a file (or standard input for `-`) in fixed-size chunks, so memory does not grow with the file.
public struct ByteSource: ~Copyable {
    public let path: String
    private let fd: Int32
    private let ownsDescriptor: Bool

    public init(path: String) throws(InputError) {
        self.path = path
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
            #if os(Linux)
            // A pipe holds 64 KiB by default: each read returns at most that, and the writer
            // stalls as often. A larger one (F_SETPIPE_SZ; refused harmlessly for files, ttys
            // and above the system's limit) lets the large reads below pay off.
            _ = fcntl(STDIN_FILENO, 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
            #endif
            return
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path: path) }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        fd = opened
        ownsDescriptor = true
    }

    /// Calls `body` with each chunk until the end of the file.
    public func forEachChunk(size: Int = 1 << 16, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer.baseAddress, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }
}
