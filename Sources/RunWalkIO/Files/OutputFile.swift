#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore

/// Writes a report, an export or a converted track to the path the user gave with `-o`.
///
/// What is at the path is respected: a device, FIFO or socket (`/dev/full`, `/dev/stdout`, a
/// pipe) is written into directly; a symlink is followed and its target written; an existing
/// regular file keeps its mode and is replaced atomically (a write error leaves the old
/// file); a new file gets `newFileMode`. A write error is an error, with the C library's words.
public enum OutputFile {
    /// Why the output could not be written.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        /// The path as the user gave it.
        public var path: String
        /// The C library's words ("no space left on device").
        public var reason: String
        /// `cannot write PATH: REASON`.
        public var description: String { "cannot write \(UserText.path(path)): \(reason)" }
    }

    /// Writes `bytes` to `path` (see the type's comment). `newFileMode` is the mode of a file
    /// that did not exist (exact: the umask does not apply).
    public static func write(_ bytes: [UInt8], to path: String, newFileMode: mode_t) throws(Failure) {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: try replace(regularFileAt: resolved(path), with: bytes, mode: info.st_mode & 0o7777, reported: path)
            case S_IFDIR: throw Failure(path: path, reason: "is a directory")
            default: try writeInPlace(bytes, to: path, create: false, mode: newFileMode)
            }
            return
        }
        var linkInfo = stat()
        if lstat(path, &linkInfo) == 0 {
            // A dangling symlink: create its target, as a shell's `>` would.
            try writeInPlace(bytes, to: path, create: true, mode: newFileMode)
            return
        }
        try replace(regularFileAt: path, with: bytes, mode: newFileMode, reported: path)
    }

    /// The path with symlinks resolved, so a link is followed rather than replaced.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    private static func writeInPlace(_ bytes: [UInt8], to path: String, create: Bool, mode: mode_t) throws(Failure) {
        // No O_EXCL: it refuses a dangling symlink (EEXIST) instead of following it.
        let flags = O_WRONLY | O_CLOEXEC | O_TRUNC | (create ? O_CREAT : 0)
        let descriptor = open(path, flags, mode)
        guard descriptor >= 0 else { throw Failure(path: path, reason: DescriptorWriter.reason(errno)) }
        if create { _ = fchmod(descriptor, mode) }
        let failure = DescriptorWriter.write(bytes, to: descriptor)
        let closed = close(descriptor) == 0 ? nil : errno
        if let code = failure ?? closed { throw Failure(path: path, reason: DescriptorWriter.reason(code)) }
    }

    /// Writes a temporary file beside `target`, syncs it and renames it over `target`.
    private static func replace(regularFileAt target: String, with bytes: [UInt8], mode: mode_t, reported: String) throws(Failure) {
        let folder = target.contains("/") ? String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)]) : "."
        var template = Array(((folder.isEmpty ? "" : folder) + "/.runwalk-output-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw Failure(path: reported, reason: DescriptorWriter.reason(errno)) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure = fchmod(descriptor, mode) == 0 ? nil : errno
        failure = failure ?? DescriptorWriter.write(bytes, to: descriptor)
        failure = failure ?? (fsync(descriptor) == 0 ? nil : errno)
        if close(descriptor) != 0 { failure = failure ?? errno }
        failure = failure ?? (rename(temporary, target) == 0 ? nil : errno)
        if let failure {
            unlink(temporary)
            throw Failure(path: reported, reason: DescriptorWriter.reason(failure))
        }
    }
}
