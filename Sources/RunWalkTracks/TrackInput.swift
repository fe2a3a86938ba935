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

/// A file (or standard input for `-`) read in chunks, gzip-compressed or not (recognised by
/// its magic bytes, not the name; concatenated gzip members are read in turn). Each read returns
/// what has arrived, as read(2) does: a slow pipe is read line by line, not a buffer at a time.
final class TrackInput {
    let path: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// Whether the path names a regular file (which can be opened again from its start; a FIFO cannot).
    private(set) var isRegularFile = false
    /// Whether the content is gzip-compressed (known after the first read).
    private(set) var compressed = false
    /// Whether the gzip stream ended early (a cut-off download or copy).
    private(set) var truncated = false
    /// Called before a read that would wait for a pipe's writer (to flush what was written so far).
    var beforeWaiting: (() throws -> Void)?

    private let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    private var rawStart = 0, rawEnd = 0
    /// Compressed bytes consumed (for the place of a gzip error).
    private var rawConsumed = 0
    private var started = false, rawEOF = false, finished = false, memberEnded = false
    private var stream = z_stream()
    private var inflating = false

    init(path: String) throws {
        self.path = path
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
            #if os(Linux)
            // A pipe holds 64 KiB by default, so each read returns at most that and the writer
            // stalls as often; a larger one (F_SETPIPE_SZ; refused harmlessly for files, ttys and
            // above the system's limit) lets large reads pay off, as in the NMEA reader.
            _ = fcntl(STDIN_FILENO, 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
            #endif
            return
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            raw.deallocate()
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw InputError.notFound(path: path) }
            throw InputError.unreadable(path: path, reason: String(cString: strerror(code)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            raw.deallocate()
            throw InputError.isDirectory(path: path)
        }
        isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            raw.deallocate()
            throw InputError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        fd = opened
        ownsDescriptor = true
    }

    /// Fills `buffer` from the start with what is there (waiting only when nothing is); returns
    /// the byte count, 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        if !started {
            started = true
            // Two bytes tell gzip from anything else.
            while rawEnd < 2, try fillRaw() {}
            compressed = rawEnd >= 2 && raw[0] == 0x1F && raw[1] == 0x8B
            if compressed {
                guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                    throw InputError.unreadable(path: path, reason: "out of memory")
                }
                inflating = true
            }
        }
        if compressed { return try inflate(into: buffer) }
        if rawStart < rawEnd, let held = raw.baseAddress {
            let n = min(buffer.count, rawEnd - rawStart)
            base.copyMemory(from: held + rawStart, byteCount: n)
            rawStart += n
            return n
        }
        return try readSome(into: base, count: buffer.count)
    }

    /// One read(2) of what has arrived; 0 at the end.
    private func readSome(into base: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if rawEOF { return 0 }
        if !isRegularFile, let beforeWaiting {
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&request, 1, 0) == 0 { try beforeWaiting() }
        }
        while true {
            let n = Glibc.read(fd, base, count)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { rawEOF = true }
            return n
        }
    }

    /// Reads more compressed bytes after those held; false at the end of the input.
    private func fillRaw() throws -> Bool {
        guard let base = raw.baseAddress else { return false }
        if rawStart > 0 {
            if rawEnd > rawStart { base.copyMemory(from: base + rawStart, byteCount: rawEnd - rawStart) }
            rawEnd -= rawStart
            rawStart = 0
        }
        guard rawEnd < raw.count else { return true }
        let n = try readSome(into: base + rawEnd, count: raw.count - rawEnd)
        rawEnd += n
        return n > 0
    }

    private func inflate(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let out = buffer.baseAddress, let base = raw.baseAddress else { return 0 }
        while !finished {
            if memberEnded {
                // Another member may follow (concatenated gzip); anything else after one is ignored, as gzip does.
                memberEnded = false
                while rawEnd - rawStart < 2, try fillRaw() {}
                guard rawEnd - rawStart >= 2, raw[rawStart] == 0x1F, raw[rawStart + 1] == 0x8B else { finished = true; break }
                inflateReset(&stream)
            }
            if rawStart == rawEnd, try !fillRaw() {
                // zlib would hand out what a cut-off gzip stream held: the points it held are read, and said so.
                truncated = true
                finished = true
                break
            }
            stream.next_in = (base + rawStart).assumingMemoryBound(to: Bytef.self)
            stream.avail_in = UInt32(rawEnd - rawStart)
            stream.next_out = out.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
            let code = CZlib.inflate(&stream, Z_NO_FLUSH)
            let consumed = rawEnd - rawStart - Int(stream.avail_in)
            rawStart += consumed
            rawConsumed += consumed
            let produced = min(buffer.count, Int(UInt32.max)) - Int(stream.avail_out)
            switch code {
            case Z_STREAM_END: memberEnded = true
            case Z_OK, Z_BUF_ERROR: break
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(code)"
                throw TrackFileError(path: path, place: "byte \(rawConsumed)",
                                     message: "gzip data corrupt or truncated (\(message)); the file's compressed bytes end or break here")
            }
            if produced > 0 { return produced }
        }
        return 0
    }

    deinit {
        if inflating { inflateEnd(&stream) }
        if ownsDescriptor { close(fd) }
        raw.deallocate()
    }
}
