import CAdwaita
import Foundation
import RunWalkAppModel
import RunWalkCore
import RunWalkIO
import RunWalkReport
import RunWalkStore

/// What the history and session pages read from and change in the store: the same store calls
/// as `runwalk history --calendar/--records`, `runwalk session rename/note/rm` and `runwalk export`.
/// Every failure is one line naming the file and what is wrong (a damaged database is checked).
@MainActor
enum HistoryStore {
    /// Everything the history page shows.
    struct Contents {
        var sessions: [SessionInfo]
        var labels: [Int64: (name: String?, note: String?)]
        var calendar: TrainingCalendar
        var records: HistoryCalendarModel.RecordsInput
    }

    static var location: StoreLocation { .fromEnvironment() }

    /// The store's contents; an empty history when no session was ever recorded.
    static func contents(today: CalendarDay) throws -> Contents {
        try call(nil) {
            guard let store = try RunWalkStore.openForReading(location: location, options: .fromEnvironment()) else {
                return Contents(sessions: [], labels: [:], calendar: TrainingCalendar(runs: []), records: .init())
            }
            return try call(store) {
                let sessions = try store.sessions()
                var calendar = TrainingCalendar(runs: sessions.filter { !$0.state.isRecording }.map {
                    .init(day: CalendarDay($0.date), distanceMetres: $0.distanceMetres ?? 0, durationSeconds: $0.durationSeconds ?? 0)
                })
                if let stored = try store.activeEnrolment(), let plan = try? TrainingPlan(json: stored.planJSON) {
                    let progress = PlanProgress(plan: plan, enrolment: stored.enrolment, log: stored.log)
                    calendar.due = Set(progress.projected(today: today, limit: 60).map(\.day))
                }
                let found = try History(store: store).records()
                func entry(_ r: History.Record?) -> HistoryCalendarModel.RecordsInput.Entry? {
                    r.map { .init(seconds: $0.seconds, metres: $0.metres, sessionID: $0.sessionID, date: $0.date) }
                }
                return Contents(sessions: sessions, labels: try store.sessionLabels(), calendar: calendar,
                                records: .init(fastest1km: entry(found.fastest1km), fastest5km: entry(found.fastest5km),
                                               longestRun: entry(found.longestRun), longestRunInterval: entry(found.longestRunInterval)))
            }
        }
    }

    /// One stored session with its track, name and note.
    static func session(_ id: Int64) throws -> (recorded: RecordedSession, info: SessionInfo, name: String?, note: String?) {
        try call(nil) {
            guard let store = try RunWalkStore.openForReading(location: location, options: .fromEnvironment()) else {
                throw StoreError.noSuchSession(String(id))
            }
            return try call(store) {
                let stored = try store.loadSession(.id(id))
                let label = try store.sessionLabels()[id]
                return (RecordedSession(summary: stored.summary, track: stored.trackPoints, heartRate: stored.heartRate), stored.info, label?.name, label?.note)
            }
        }
    }

    /// Names a session (nil or "" removes the name), as `runwalk session rename`.
    static func rename(_ id: Int64, to name: String) throws { try change(id) { try $0.renameSession(id: id, name: try cleaned(name, "name", 120)) } }

    /// Notes on a session (nil or "" removes the note), as `runwalk session note`.
    static func note(_ id: Int64, _ text: String) throws { try change(id) { try $0.setSessionNote(id: id, note: try cleaned(text, "note", 2000)) } }

    /// Deletes a session, as `runwalk session rm --yes`; a plan day it did is due again.
    static func delete(_ id: Int64) throws { try change(id) { try $0.deleteSession(id: id) } }

    /// Writes a session as GPX, TCX or FIT into the documents folder (`RunWalk` in it) and returns the path.
    static func export(_ id: Int64, format: AppData.ExportFormat) throws -> String {
        let (recorded, info, _, _) = try session(id)
        let folder = (documentsFolder() as NSString).appendingPathComponent("RunWalk")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch { throw AppError("\(UserText.path(folder)): cannot create the folder: \(FileErrorText.reason(error))") }
        let day = CalendarDay(info.date)
        let path = (folder as NSString).appendingPathComponent("runwalk-\(day)-session-\(id).\(format.rawValue)")
        let bytes: [UInt8]
        switch format {
        case .gpx: bytes = Array(GPXWriter.render(recorded).utf8)
        case .tcx: bytes = Array(TCXWriter.render(recorded).utf8)
        case .fit: bytes = FITActivityWriter.render(recorded)
        }
        // Private (0600) like the CLI's exports: the track says where the runner lives.
        do { try OutputFile.write(bytes, to: path, newFileMode: PrivateFolder.fileMode) } catch { throw AppError(error.description) }
        return path
    }

    /// The user's documents folder (XDG user-dirs), or ~/Documents.
    static func documentsFolder() -> String {
        if let documents = g_get_user_special_dir(G_USER_DIRECTORY_DOCUMENTS) { return String(cString: documents) }
        return (NSHomeDirectory() as NSString).appendingPathComponent("Documents")
    }

    private static func change(_ id: Int64, _ body: (RunWalkStore) throws -> Bool) throws {
        try call(nil) {
            guard let store = try RunWalkStore.openIfPresent(location: location, options: .fromEnvironment()) else {
                throw StoreError.noDatabase(location.databasePath)
            }
            try call(store) {
                if try store.loadSession(.id(id)).info.state.isRecording {
                    throw AppError("session \(id) is still being recorded: stop it first")
                }
                guard try body(store) else { throw StoreError.noSuchSession(String(id)) }
            }
        }
    }

    /// The text trimmed; control characters and overlong texts refused (as the CLI does).
    static func cleaned(_ text: String, _ what: String, _ limit: Int) throws -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let bad = trimmed.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\n" }) {
            throw AppError("the \(what) holds a control character (U+\(String(bad.value, radix: 16, uppercase: true)))")
        }
        guard trimmed.count <= limit else { throw AppError("the \(what) is \(trimmed.count) characters long; at most \(limit)") }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Runs a store call; a store error becomes one line, a damaged database's with what `quick_check` found.
    private static func call<T>(_ store: RunWalkStore?, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as StoreError {
            guard error.isCorrupt else { throw AppError(error.description) }
            var found = "the database file is damaged"
            if case .sqlite(let failure, _) = error { found = failure.description }
            if let check = try? (store ?? RunWalkStore.openForReading(location: location, options: .fromEnvironment()))?.quickCheck() {
                found = "quick_check: " + UserText.printable(check.split(separator: "\n").first ?? "", limit: 120)
            }
            throw AppError("\(UserText.path(location.databasePath)) is damaged (\(found)). Nothing was changed; "
                           + "`runwalk recover --salvage` copies every readable session into a new database.")
        }
    }
}
