import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkReport
import RunWalkStore

/// The app's way to the user's files: the session store (as `runwalk history/report/export`
/// read it) and the workouts file (as `runwalk workouts` writes it).
enum AppData {
    /// The store, read-only; nil when no session was ever recorded.
    static func store() throws -> RunWalkStore? {
        do { return try RunWalkStore.openForReading(location: .fromEnvironment(), options: .fromEnvironment()) } catch {
            throw AppError("\(error)")
        }
    }

    /// Every session, newest first.
    static func sessions() throws -> [SessionInfo] {
        guard let store = try store() else { return [] }
        do { return try store.sessions() } catch { throw AppError("\(error)") }
    }

    /// One stored session with its track.
    static func session(_ id: Int64) throws -> StoredSession {
        guard let store = try store() else { throw AppError("no sessions recorded yet") }
        do { return try store.loadSession(.id(id)) } catch { throw AppError("\(error)") }
    }

    /// The named workouts; a bad line in the user's file is skipped (and told on standard error).
    static func library() -> WorkoutLibrary {
        do {
            let (library, problems) = try WorkoutLibraryFile().loadLeniently()
            for problem in problems { AppLog.warning("runwalk-app: warning: \(problem.error.description) (this line is skipped)") }
            return library
        } catch {
            AppLog.warning("runwalk-app: \(error)")
            return WorkoutLibrary()
        }
    }

    /// Saves `spec` as the user's workout `name`; returns the problem in one line, or nil.
    static func save(name: String, spec: String) -> String? {
        let file = WorkoutLibraryFile()
        do {
            // One line added: the runner's comments, order and other lines stay as they were.
            try file.edit { try $0.add(name: name, spec: spec) }
            return nil
        } catch let error as ConfigFileError {
            return error.message
        } catch {
            return "\(UserText.path(file.url.path)): cannot save: \(FileErrorText.reason(error))"
        }
    }

    /// Writes a session's HTML report to a private file in the cache folder and returns its path.
    static func writeReport(_ id: Int64) throws -> String {
        let stored = try session(id)
        let html = HTMLReport.render(RecordedSession(summary: stored.summary, track: stored.trackPoints, heartRate: stored.heartRate))
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".cache")
        let folder = (cache as NSString).appendingPathComponent("runwalk")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch { throw AppError("\(UserText.path(folder)): \(FileErrorText.reason(error))") }
        let path = (folder as NSString).appendingPathComponent("session-\(id).html")
        try write(Array(html.utf8), to: path)
        return path
    }

    /// The export formats, as the file chooser offers them.
    enum ExportFormat: String, CaseIterable { case gpx, tcx, fit }

    /// Writes a session as GPX, TCX or FIT to `path`.
    static func export(_ id: Int64, format: ExportFormat, to path: String) throws {
        let recorded = try session(id)
        let session = RecordedSession(summary: recorded.summary, track: recorded.trackPoints, heartRate: recorded.heartRate)
        switch format {
        case .gpx: try write(Array(GPXWriter.render(session).utf8), to: path)
        case .tcx: try write(Array(TCXWriter.render(session).utf8), to: path)
        case .fit: try write(FITActivityWriter.render(session), to: path)
        }
    }

    private static func write(_ bytes: [UInt8], to path: String) throws {
        // Private (0600) like the CLI's reports: the track says where the runner lives.
        do { try OutputFile.write(bytes, to: path, newFileMode: PrivateFolder.fileMode) } catch { throw AppError(error.description) }
    }
}
