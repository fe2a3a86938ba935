import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The whole of a /proc file, read until end of file: /proc reports no size, so readers that trust
/// the size (Foundation's) stop after the first read and a test could pass on half a maps file.
public func procFileText(_ path: String) -> String {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        bytes.append(contentsOf: buffer[..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// A process's signal mask and dispositions from /proc/PID/status, as evidence in messages.
public struct ProcessSignalState: CustomStringConvertible {
    public var blocked: UInt64
    public var ignored: UInt64
    public var caught: UInt64

    public init?(pid: pid_t) {
        var values: [String: UInt64] = [:]
        for line in procFileText("/proc/\(pid)/status").split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, ["SigBlk", "SigIgn", "SigCgt"].contains(String(parts[0])) else { continue }
            values[String(parts[0])] = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16)
        }
        guard let blocked = values["SigBlk"], let ignored = values["SigIgn"], let caught = values["SigCgt"] else { return nil }
        (self.blocked, self.ignored, self.caught) = (blocked, ignored, caught)
    }

    public static func bit(_ signal: Int32) -> UInt64 { 1 << UInt64(signal - 1) }

    public var description: String {
        "SigBlk \(String(blocked, radix: 16)) SigIgn \(String(ignored, radix: 16)) SigCgt \(String(caught, radix: 16))"
    }
}
