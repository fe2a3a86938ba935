import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain words for a file error: the C library's for an errno, never a Foundation dump
/// (`Error Domain=NSCocoaErrorDomain Code=259 … UserInfo={…}`).
public enum FileErrorText {
    /// "permission denied", "no such file", "is a directory", "no space left on device", …
    public static func reason(_ error: Error) -> String {
        switch error {
        case let failure as OutputFile.Failure: return failure.reason
        case let failure as PrivateFolder.Failure: return failure.description
        case let failure as InputError: return failure.description
        default: break
        }
        if let code = posixCode(error) { return DescriptorWriter.reason(code) }
        if let cocoa = error as? CocoaError {
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "not UTF-8 text"
            case .fileWriteOutOfSpace: return "no space left on device"
            case .fileWriteVolumeReadOnly: return "read-only file system"
            case .fileWriteFileExists: return "already exists"
            default: return "error \(cocoa.code.rawValue)"
            }
        }
        // Our own errors say themselves.
        return (error as? CustomStringConvertible)?.description ?? String(describing: error)
    }

    /// The errno behind a POSIX error, or behind a Cocoa error's underlying one.
    private static func posixCode(_ error: Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying { return posixCode(underlying) }
        return nil
    }
}
