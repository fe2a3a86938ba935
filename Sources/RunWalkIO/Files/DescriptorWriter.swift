#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes bytes to a file descriptor with write(2): every byte or an error, never a trap.
///
/// `FileHandle.write(Data)` traps on EPIPE, ENOSPC and EBADF; a closed pipe or a full disk is
/// something to report, not a crash.
public enum DescriptorWriter {
    /// Writes all of `bytes` to `descriptor`, retrying interrupted and partial writes; the
    /// `errno` of the failure, or nil when everything was written.
    public static func write(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> Int32? {
        var failure: Int32?
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            failure = writeBuffer(UnsafeRawBufferPointer(buffer), to: descriptor)
        }
        if done == nil {
            failure = Array(bytes).withUnsafeBytes { writeBuffer($0, to: descriptor) }
        }
        return failure
    }

    private static func writeBuffer(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard let base = buffer.baseAddress else { return nil }
        var offset = 0
        while offset < buffer.count {
            let n = systemWrite(descriptor, base + offset, buffer.count - offset)
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN {
                    // A non-blocking descriptor someone handed us: wait until it takes more.
                    var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&request, 1, -1)
                    continue
                }
                return code
            }
            if n == 0 { return EIO }
            offset += n
        }
        return nil
    }

    private static func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(fd, pointer, count)
        #else
        return Darwin.write(fd, pointer, count)
        #endif
    }

    /// The C library's words for an `errno` value, in lower case ("no space left on device").
    public static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let words = String(cString: text)
        guard let first = words.first else { return words }
        return first.lowercased() + words.dropFirst()
    }
}
