#if canImport(Glibc)
import Glibc
#endif

/// Names the calling thread for the kernel (`top -H`, /proc/PID/task/*/comm, the footprint
/// bench). Foundation's `Thread.name` does not reach the kernel on Linux, and Glibc's
/// `pthread_setname_np` is not visible to Swift, so the name is written to
/// `/proc/thread-self/comm`; at most 15 bytes are kept. Failure is harmless (the name stays).
public enum KernelThreadName {
    /// Gives the calling thread `name` (cut to 15 bytes) in the kernel's listings.
    public static func set(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
