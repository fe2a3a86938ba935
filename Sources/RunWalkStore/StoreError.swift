import RunWalkCore
import RunWalkIO

/// What can go wrong with the store: data first (SQLite's code and the SQL it was running are
/// kept), and words a runner can act on in `description`. Callers switch on the case, or ask
/// `isDiskFull` / `isCorrupt`, never look into the words.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case cannotCreateFolder(String, reason: String)
    case noDatabase(String)
    /// SQLite refused: its result code, message and statement, and the database it was working on.
    case sqlite(SQLiteError, path: String)
    /// Something else failed while the store was in use (a file operation, an encoding): why, and
    /// the database.
    case failed(String, path: String)
    /// `runwalk recover --salvage` holds the store (the recorder keeps its rows and retries).
    case beingSalvaged(path: String)
    /// `quick_check` found the file damaged: its first finding.
    case damaged(path: String, finding: String)
    case noSuchSession(String)
    case noSessions
    case badReference(String)
    /// A session is being recorded into the store (salvage waits for it to end).
    case recordingNow(String)
    /// The database was written by a newer RunWalk (its store version, and ours).
    case newerVersion(path: String, found: Int, supported: Int)

    /// `error` as met while working on the database at `path`: a `StoreError` as it is, SQLite's
    /// own kept whole, anything else by its description.
    init(_ error: any Error, path: String) {
        switch error {
        case let error as StoreError: self = error
        case let error as SQLiteError: self = .sqlite(error, path: path)
        default: self = .failed(String(describing: error), path: path)
        }
    }

    public var description: String {
        switch self {
        case .cannotCreateFolder(let dir, let reason): return "cannot create the data folder \(UserText.path(dir)): \(reason)"
        case .noDatabase(let path): return "no sessions recorded yet (\(UserText.path(path)) does not exist)"
        case .sqlite(_, let path), .failed(_, let path), .beingSalvaged(let path), .damaged(let path, _):
            return "\(UserText.path(path)): \(reason)"
        case .noSuchSession(let reference): return "no session \(reference) in the store (see `runwalk history`)"
        case .noSessions: return "no sessions recorded yet"
        case .recordingNow(let path):
            return "a session is being recorded into \(UserText.path(path)) right now; nothing was changed: salvage once it has ended"
        case .newerVersion(let path, let found, let supported):
            return "\(UserText.path(path)) was written by a newer RunWalk (store version \(found); this RunWalk knows versions up to "
                + "\(supported)): it is left untouched; use the newer RunWalk, or move the file aside to start a new store"
        case .badReference(let text): return "\"\(UserText.printable(text))\" is not a session: give its number (from `runwalk history`) or `last`"
        }
    }

    /// Why, without the database's path: "SQLite error 13: database or disk is full" (the
    /// recorder's warnings name the path themselves).
    public var reason: String {
        switch self {
        case .sqlite(let error, _): return error.description
        case .failed(let reason, _): return reason
        case .beingSalvaged: return "the store is being salvaged by `runwalk recover --salvage`"
        case .damaged(_, let finding): return "database disk image is malformed (quick_check: \(finding))"
        default: return description
        }
    }

    /// Whether the error means the disk (or the database's size limit) is full.
    public var isDiskFull: Bool {
        if case .sqlite(let error, _) = self { return error.isDiskFull }
        return false
    }

    /// Whether the file was found damaged (SQLITE_CORRUPT, SQLITE_NOTADB, or a failed quick_check).
    public var isCorrupt: Bool {
        switch self {
        case .sqlite(let error, _): return error.isCorrupt
        case .damaged: return true
        default: return false
        }
    }
}
