import FoundationEssentials
import RunWalkCore
import RunWalkIO
import RunWalkReport
import RunWalkStore

/// What to do when a recording could not be saved: keep the summary, and the fixes that were
/// not saved as an NMEA track, in files of their own
/// (`$XDG_STATE_HOME/runwalk`, else `~/.local/state/runwalk`, else the current folder) and
/// make the command fail, so a runner or a script knows the session is not in the store.
enum UnsavedSession {
    /// The error that ends the command (exit 1), naming the fallback file when one was written.
    static func report(_ outcome: SessionRecorder.Outcome, summaryJSON: String) -> UserFacingError {
        let what = outcome.sessionID == nil
            ? "the session was not recorded"
            : "session \(outcome.sessionID ?? 0) was recorded incompletely (\(outcome.rowsLost) rows not saved)"
        let track = trackText(outcome.unsavedFixes)
        guard let path = writeFallback(summaryJSON, track: track?.text) else {
            return .runtime("\(what); the summary could not be saved anywhere either")
        }
        var message = "\(what); its summary is saved in \(UserText.path(path)).json"
        if let track {
            message += " and the \(track.epochs) fixes not saved in \(UserText.path(path)).nmea (`runwalk replay` reads it)"
        }
        return .runtime(message)
    }

    /// The unsaved fixes with a position as an NMEA track (RMC + GGA per fix), nil without any.
    static func trackText(_ fixes: [Fix]) -> NMEAWriter.Output? {
        let points = fixes.compactMap { fix -> GPXTrack.Point? in
            guard let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
            return GPXTrack.Point(latitude: latitude, longitude: longitude, elevationMetres: fix.altitudeMSL, time: fix.time,
                                  speedMetresPerSecond: fix.speedMetresPerSecond, hdop: fix.hdop)
        }
        guard !points.isEmpty else { return nil }
        return NMEAWriter.render(GPXTrack(name: "unsaved RunWalk session", segments: [points]), source: "an unsaved recording")
    }

    /// Candidate folders for the fallback, most fitting first.
    static func folders(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var folders: [String] = []
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { folders.append(state + "/runwalk") }
        if let home = environment["HOME"], !home.isEmpty { folders.append(home + "/.local/state/runwalk") }
        folders.append(FileManager.default.currentDirectoryPath)
        return folders
    }

    /// Writes `BASE.json` (and `BASE.nmea`) in the first folder that takes them; returns BASE.
    private static func writeFallback(_ summaryJSON: String, track: String?) -> String? {
        let stamp = UTCTime(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded())).iso8601(fractionDigits: 0)
            .replacing(":", with: "")
        for folder in folders() {
            let path = folder + "/unsaved-session-\(stamp)"
            do {
                try PrivateFolder.ensure(folder)
                try OutputFile.write(Array((summaryJSON + "\n").utf8), to: path + ".json", newFileMode: PrivateFolder.fileMode)
                if let track { try OutputFile.write(Array(track.utf8), to: path + ".nmea", newFileMode: PrivateFolder.fileMode) }
                return path
            } catch {
                continue
            }
        }
        return nil
    }
}
