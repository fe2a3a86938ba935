#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib
import RunWalkIO

/// Why a track file could not be read: one line naming the file, where (line or byte
/// offset) and what is wrong.
public struct TrackFileError: Error, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// `line 12` or `byte 4096`, when the problem has a place.
    public var place: String?
    /// What is wrong.
    public var message: String

    /// An error at `place` (nil for the whole file).
    public init(path: String, place: String? = nil, message: String) {
        self.path = path
        self.place = place
        self.message = message
    }

    /// `FILE:line 12: message`, `FILE: message`.
    public var description: String {
        place.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)"
    }
}

/// A file (or standard input for `-`) read in chunks, gzip-compressed or not: zlib passes
/// plain files through and decompresses gzip (recognised by its magic bytes, not the name).
final class TrackInput {
    let path: String
    private let file: gzFile
    private var firstRead = true
    /// Whether the path names a regular file (which can be opened again from its start; a FIFO cannot).
    private(set) var isRegularFile = false
    /// Whether the content is gzip-compressed (known after the first read).
    private(set) var compressed = false

    init(path: String) throws {
        self.path = path
        let fd: Int32
        if path == "-" {
            // gzclose closes the descriptor: give zlib a copy so standard input stays open.
            fd = dup(STDIN_FILENO)
            #if os(Linux)
            // A pipe holds 64 KiB by default, so each read returns at most that and the writer
            // stalls as often; a larger one (F_SETPIPE_SZ; refused harmlessly for files, ttys and
            // above the system's limit) lets large reads pay off, as in the NMEA reader.
            _ = fcntl(STDIN_FILENO, 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
            #endif
        } else {
            var info = stat()
            guard stat(path, &info) == 0 else {
                let code = errno
                if code == ENOENT || code == ENOTDIR { throw InputError.notFound(path: path) }
                throw InputError.unreadable(path: path, reason: String(cString: strerror(code)))
            }
            if (info.st_mode & S_IFMT) == S_IFDIR { throw InputError.isDirectory(path: path) }
            isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
            fd = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard fd >= 0 else { throw InputError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard let file = gzdopen(fd, "rb") else {
            close(fd)
            throw InputError.unreadable(path: path, reason: "out of memory")
        }
        self.file = file
        gzbuffer(file, 1 << 16)
    }

    /// Fills `buffer` from the start; returns the byte count, 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let n = gzread(file, base, UInt32(min(buffer.count, Int(Int32.max))))
        if firstRead {
            firstRead = false
            compressed = gzdirect(file) == 0
        }
        if n < 0 {
            var code: Int32 = 0
            var message = gzerror(file, &code).map { String(cString: $0) } ?? "unknown error"
            // zlib names a descriptor it was given `<fd:3>`: the file is named in front instead.
            if message.hasPrefix("<fd:"), let colon = message.firstRange(of: ": ") { message = String(message[colon.upperBound...]) }
            if code == Z_ERRNO { throw InputError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            throw TrackFileError(path: path, place: "byte \(gzoffset(file))",
                                 message: "gzip data corrupt or truncated (\(message)); the file's compressed bytes end or break here")
        }
        if n == 0, compressed {
            // zlib hands out what a cut-off gzip stream held and notes the early end instead of failing.
            var code: Int32 = 0
            _ = gzerror(file, &code)
            if code == Z_BUF_ERROR { truncated = true }
        }
        return Int(n)
    }

    /// Whether the gzip stream ended early (a cut-off download or copy).
    private(set) var truncated = false

    deinit { gzclose(file) }
}
