#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the runner's config files (settings, workouts, plans): only regular files, opened so
/// that a FIFO in a file's place cannot block (O_NONBLOCK, then fstat), and bounded.
enum ConfigFileBytes {
    /// The file's bytes, at most `limit`; nil when there is no such file.
    static func read(_ path: String, limit: Int) throws(InputError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            if code == EISDIR { throw .isDirectory(path: path) }
            throw .unreadable(path: path, reason: DescriptorWriter.reason(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: DescriptorWriter.reason(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .isDirectory(path: path)
        case S_IFIFO: throw .notRegularFile(path: path, found: "a FIFO (named pipe)")
        case S_IFSOCK: throw .notRegularFile(path: path, found: "a socket")
        case S_IFCHR: throw .notRegularFile(path: path, found: "a character device")
        case S_IFBLK: throw .notRegularFile(path: path, found: "a block device")
        default: throw .notRegularFile(path: path, found: "not a file")
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: DescriptorWriter.reason(errno))
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else { throw .tooLarge(path: path, limit: limit) }
            bytes += chunk[0..<n]
        }
    }

    /// Throws for the first line longer than `limit` bytes (a parser's time and memory grow with one).
    static func checkLines(_ bytes: [UInt8], path: String, limit: Int) throws(InputError) {
        var line = 1, start = 0
        for (i, b) in bytes.enumerated() where b == 10 {
            if i - start > limit { throw .lineTooLong(path: path, line: line, limit: limit) }
            line += 1
            start = i + 1
        }
        if bytes.count - start > limit { throw .lineTooLong(path: path, line: line, limit: limit) }
    }
}
