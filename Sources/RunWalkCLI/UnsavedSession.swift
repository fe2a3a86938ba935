import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkStore

/// What to do when a recording could not be saved: keep the summary in a file of its own
/// (`$XDG_STATE_HOME/runwalk`, else `~/.local/state/runwalk`, else the current folder) and
/// make the command fail, so a runner or a script knows the session is not in the store.
enum UnsavedSession {
    /// The error that ends the command (exit 1), naming the fallback file when one was written.
    static func report(_ outcome: SessionRecorder.Outcome, summaryJSON: String) -> UserFacingError {
        let what = outcome.sessionID == nil
            ? "the session was not recorded"
            : "session \(outcome.sessionID ?? 0) was recorded incompletely (\(outcome.rowsLost) rows not saved)"
        guard let path = writeFallback(summaryJSON) else {
            return .runtime("\(what); the summary could not be saved anywhere either")
        }
        return .runtime("\(what); its summary is saved in \(UserText.path(path))")
    }

    /// Candidate folders for the fallback, most fitting first.
    static func folders(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var folders: [String] = []
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { folders.append(state + "/runwalk") }
        if let home = environment["HOME"], !home.isEmpty { folders.append(home + "/.local/state/runwalk") }
        folders.append(FileManager.default.currentDirectoryPath)
        return folders
    }

    private static func writeFallback(_ summaryJSON: String) -> String? {
        let stamp = UTCTime(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded())).iso8601(fractionDigits: 0)
            .replacingOccurrences(of: ":", with: "")
        for folder in folders() {
            let path = folder + "/unsaved-session-\(stamp).json"
            do {
                try PrivateFolder.ensure(folder)
                try OutputFile.write(Array((summaryJSON + "\n").utf8), to: path, newFileMode: PrivateFolder.fileMode)
                return path
            } catch {
                continue
            }
        }
        return nil
    }
}
