import Foundation

/// Writes to the standard streams (Swift 6 forbids Glibc's `stdout`/`stderr` globals).
enum Terminal {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("runwalk: error: \(message)\n".utf8))
    }

    static func warning(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// An error for the user: one clear line, and the exit code it maps to.
struct UserFacingError: Error {
    var message: String
    var exitCode: Int32

    static func input(_ message: String) -> UserFacingError { UserFacingError(message: message, exitCode: 2) }
    static func runtime(_ message: String) -> UserFacingError { UserFacingError(message: message, exitCode: 1) }
}
