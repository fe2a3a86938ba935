#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owner-only folders and files for what RunWalk keeps: the database holds every fix (where the
/// runner lives, when they leave), so neither it nor the workouts and settings are for other
/// local users, whatever the umask.
public enum PrivateFolder {
    /// Mode of the data and config folders (and folders created on the way to them).
    public static let folderMode: mode_t = 0o700
    /// Mode of every file in them.
    public static let fileMode: mode_t = 0o600

    /// Why a folder could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// The folder that could not be created.
        public var path: String
        /// The C library's words for it.
        public var reason: String
        /// `cannot create PATH: REASON`.
        public var description: String { "cannot create \(path): \(reason)" }
    }

    /// Creates `path` and any missing folder on the way, each 0700 (chmod after mkdir, so the
    /// umask cannot loosen it). Existing folders are left as they are (see `tighten`).
    public static func ensure(_ path: String) throws(Failure) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            var info = stat()
            if stat(prefix, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFDIR else {
                    throw Failure(path: prefix, reason: "not a folder")
                }
                continue
            }
            if mkdir(prefix, folderMode) != 0, errno != EEXIST {
                throw Failure(path: prefix, reason: DescriptorWriter.reason(errno))
            }
            _ = chmod(prefix, folderMode)
        }
    }

    /// Tightens `folder` to 0700 and the named files in it to 0600 (a name ending in "/" is a
    /// sub-folder whose files are all RunWalk's, like `locks/`), where they are ours and looser;
    /// returns what was changed, for one message. Only RunWalk's own files are touched: the
    /// folder may be one the user named (`RUNWALK_DATA_DIR`) holding other things. Errors (a
    /// read-only disk) leave things as they are: tightening is a courtesy, not a condition.
    public static func tighten(_ folder: String, files: [String]) -> [String] {
        var changed: [String] = []
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return [] }
        if tightenOne(folder, info) { changed.append(folder) }
        for name in files {
            if name.hasSuffix("/") {
                let sub = folder + "/" + name.dropLast()
                changed += tighten(sub, files: entries(of: sub))
                continue
            }
            let path = folder + "/" + name
            // lstat: a symlink's target is not ours to change.
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            if tightenOne(path, info) { changed.append(path) }
        }
        return changed
    }

    private static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Takes group's and others' access away when the file is ours and gives them any; the
    /// owner's own bits are kept as they are (never added: a folder the user made read-only, 0555,
    /// stays read-only). A folder or file its owner cannot write is left alone altogether: the user
    /// made it so on purpose, and commands that would write there say what they cannot do.
    private static func tightenOne(_ path: String, _ info: stat) -> Bool {
        guard info.st_uid == geteuid(), info.st_mode & 0o077 != 0, info.st_mode & S_IWUSR != 0 else { return false }
        return chmod(path, info.st_mode & 0o700) == 0
    }

    /// Creates an empty file with mode 0600 unless it exists (the database before SQLite opens
    /// it: SQLite gives its `-wal` and `-shm` the database's mode).
    public static func createFile(_ path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        if descriptor < 0 {
            if errno == EEXIST { return }
            throw Failure(path: path, reason: DescriptorWriter.reason(errno))
        }
        _ = fchmod(descriptor, fileMode)
        close(descriptor)
    }
}
