import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a pipe to its end with plain read(2), retrying on EINTR: Foundation's own whole-pipe
/// read of a FileHandle traps when a signal interrupts it (a forced `try` inside Foundation).
func readToEnd(_ handle: FileHandle) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: buffer[0..<count])
        } else if count < 0 && errno == EINTR {
            continue
        } else {
            return data
        }
    }
}
