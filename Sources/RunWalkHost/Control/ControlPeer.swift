import FoundationEssentials
import RunWalkIO
#if canImport(Glibc)
import Glibc
#endif

/// Who answers on a control socket: the process behind it, as the kernel tells (SO_PEERCRED),
/// so a second session can say which one is running. Connecting and closing at once is a
/// probe the server ignores.
public enum ControlPeer {
    /// The process listening on `path` and its program name; nil when nobody answers or the
    /// kernel does not say.
    public static func process(listeningOn path: String) -> (pid: Int32, program: String)? {
        guard case .success(let fd) = UnixSocket.connect(to: path) else { return nil }
        defer { close(fd) }
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }; SO_PEERCRED is 17 on Linux.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, 17, &credentials, &length) == 0, credentials.0 > 0 else { return nil }
        let pid = credentials.0
        return (pid, programName(pid) ?? "pid \(pid)")
    }

    /// The program's name from `/proc/PID/comm` (at most 15 bytes, as the kernel keeps it).
    static func programName(_ pid: Int32) -> String? {
        let fd = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let name = String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespace()
        return name.isEmpty ? nil : name
    }
}
