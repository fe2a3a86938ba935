import Foundation

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
        let ns = error as NSError
        if let code = posixCode(ns) { return DescriptorWriter.reason(code) }
        if ns.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "not UTF-8 text"
            case .fileWriteOutOfSpace: return "no space left on device"
            case .fileWriteVolumeReadOnly: return "read-only file system"
            case .fileWriteFileExists: return "already exists"
            default: break
            }
        }
        if ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain { return "error \(ns.code)" }
        // Our own errors say themselves.
        return (error as? CustomStringConvertible)?.description ?? String(describing: error)
    }

    private static func posixCode(_ error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return posixCode(underlying) }
        return nil
    }
}
