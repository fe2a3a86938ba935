#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore

extension TrackFormat {
    /// The format of the track file at `path`, told by its first bytes as `TrackFileReader` tells it;
    /// nil for standard input (`-`, read once only) or a file that cannot be opened.
    public static func of(file path: String) -> TrackFormat? {
        // Only a regular file: opening a FIFO would block, and its bytes could not be read again.
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              let input = try? TrackInput(path: path) else { return nil }
        var head = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < head.count {
            let n = (try? head.withUnsafeMutableBytes { try input.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }) ?? 0
            if n == 0 { break }
            count += n
        }
        return head[..<count].withUnsafeBytes { TrackFormat.detect($0) }
    }

    /// Whether points of this format can carry heart rate (GPX, TCX, FIT; NMEA has no sentence for it).
    public var carriesHeartRate: Bool { self != .nmea }
}
