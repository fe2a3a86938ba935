#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore

/// Why a file could not be read.
public enum InputError: Error, Equatable, CustomStringConvertible {
    case notFound(path: String)
    case unreadable(path: String, reason: String)
    case isDirectory(path: String)
    case tooLarge(path: String, limit: Int)
    /// Something other than a regular file (a FIFO, a device, a socket) where a file belongs.
    case notRegularFile(path: String, found: String)
    /// A line of a text file longer than `limit` bytes (a config line is never that long).
    case lineTooLong(path: String, line: Int, limit: Int)

    public var description: String {
        switch self {
        case .notFound(let path): return "\(UserText.path(path)): no such file"
        case .unreadable(let path, let reason): return "\(UserText.path(path)): cannot read: \(reason)"
        case .isDirectory(let path): return "\(UserText.path(path)): is a directory"
        case .tooLarge(let path, let limit): return "\(UserText.path(path)): larger than \(limit / 1_000_000) MB: not a file this command reads"
        case .notRegularFile(let path, let found): return "\(UserText.path(path)): is \(found), not a regular file"
        case .lineTooLong(let path, let line, let limit): return "\(UserText.path(path)):line \(line): longer than \(limit >> 10) KB"
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
            throw .unreadable(path: path, reason: DescriptorWriter.reason(code))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path: path) }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw .unreadable(path: path, reason: DescriptorWriter.reason(errno)) }
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
                throw InputError.unreadable(path: path, reason: DescriptorWriter.reason(errno))
            }
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// The whole file, refused beyond `limit` bytes (`/dev/zero` never ends).
    public func readAll(limit: Int) throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            try forEachChunk { chunk in
                guard bytes.count + chunk.count <= limit else { throw InputError.tooLarge(path: path, limit: limit) }
                bytes += chunk
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        return bytes
    }

    /// The whole file of `path` (`-`: standard input), at most `limit` bytes.
    public static func contents(of path: String, limit: Int) throws(InputError) -> [UInt8] {
        try ByteSource(path: path).readAll(limit: limit)
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }
}
