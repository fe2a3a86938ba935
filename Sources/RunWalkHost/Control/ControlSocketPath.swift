import FoundationEssentials
import RunWalkIO
#if canImport(Glibc)
import Glibc
#endif

/// Where the running session's control socket lives, and the private folder around it.
///
/// `$XDG_RUNTIME_DIR/runwalk/control.sock`; without XDG_RUNTIME_DIR, `/tmp/runwalk-UID/control.sock`.
/// The folder is ours and 0700: a folder someone else owns (planted in the shared /tmp) is refused,
/// since whoever owns it could read our commands or answer them. `RUNWALK_CONTROL_SOCKET`
/// names the socket itself (tests; used as given, its folder is not checked).
public enum ControlSocketPath {
    /// The environment variable that names the socket path outright.
    public static let overrideVariable = "RUNWALK_CONTROL_SOCKET"
    /// The socket's file name inside its folder.
    public static let fileName = "control.sock"

    /// The socket path for this user. With `create`, a missing folder is made (0700) and an
    /// existing one of ours tightened to 0700; without, nothing is changed (the client's case).
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment,
                               uid: uid_t = getuid(), temporaryRoot: String = "/tmp",
                               create: Bool, notice: (String) -> Void = { _ in }) throws(ControlSocketError) -> String {
        if let path = environment[overrideVariable], !path.isEmpty {
            try checkLength(path)
            return path
        }
        let folder: String
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            folder = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/runwalk"
        } else {
            folder = temporaryRoot + "/runwalk-\(uid)"
        }
        let path = folder + "/" + fileName
        try checkLength(path)
        try preparePrivateFolder(folder, uid: uid, create: create, notice: notice)
        if !create {
            // The client: a socket another user made is not our session, whatever it answers.
            var info = stat()
            if lstat(path, &info) == 0, info.st_uid != uid { throw .ownedByOther(path: path, owner: info.st_uid, us: uid) }
        }
        return path
    }

    /// Makes sure `folder` is a real folder owned by `uid` (not a symlink), 0700 when `create`.
    /// A folder others could write to may hold what they planted (a socket that answers for our
    /// session): the session (`create`) tightens it and removes everything in it that another user
    /// owns, saying so on `notice`; the client refuses it until a session has made it private.
    static func preparePrivateFolder(_ folder: String, uid: uid_t, create: Bool,
                                     notice: (String) -> Void = { _ in }) throws(ControlSocketError) {
        var info = stat()
        if lstat(folder, &info) != 0 {
            guard errno == ENOENT else { throw .system(path: folder, SocketErrno(call: "lstat", code: errno)) }
            guard create else { return }
            // A racing second session may create it between the lstat and here: EEXIST is fine,
            // the checks below still apply to whatever is there.
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw .system(path: folder, SocketErrno(call: "mkdir", code: errno))
            }
            guard lstat(folder, &info) == 0 else { throw .system(path: folder, SocketErrno(call: "lstat", code: errno)) }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(path: folder) }
        guard info.st_uid == uid else { throw .ownedByOther(path: folder, owner: info.st_uid, us: uid) }
        let writableByOthers = info.st_mode & 0o022 != 0
        guard create else {
            if writableByOthers { throw .writableByOthers(path: folder, mode: info.st_mode & 0o7777) }
            return
        }
        // mkdir's mode passes through the umask; set it outright.
        if info.st_mode & 0o777 != 0o700 && chmod(folder, 0o700) != 0 {
            throw .system(path: folder, SocketErrno(call: "chmod", code: errno))
        }
        // Tightened now, but what others left in it while it was open stays unless removed.
        var removed: [String] = []
        for name in entries(of: folder) {
            let entry = folder + "/" + name
            guard lstat(entry, &info) == 0, info.st_uid != uid else { continue }
            if unlink(entry) == 0 { removed.append("\(name) (uid \(info.st_uid))") }
        }
        if writableByOthers || !removed.isEmpty {
            notice("runwalk: control socket folder \(folder) was "
                   + (writableByOthers ? "writable by others; made it private (0700)" : "holding files of other users")
                   + (removed.isEmpty ? "" : " and removed what others put there: " + removed.joined(separator: ", ")))
        }
    }

    /// The names in `folder` (not `.` and `..`).
    private static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func checkLength(_ path: String) throws(ControlSocketError) {
        if path.utf8.count > UnixSocket.maxPathBytes { throw .pathTooLong(path: path) }
    }
}

/// Why the control socket could not be set up or reached.
public enum ControlSocketError: Error, Equatable, CustomStringConvertible {
    /// Something other than a folder stands where the socket's folder should be.
    case notAFolder(path: String)
    /// The socket's folder belongs to another user.
    case ownedByOther(path: String, owner: uid_t, us: uid_t)
    /// The socket's folder is writable by other users: what is in it may be theirs.
    case writableByOthers(path: String, mode: mode_t)
    /// A file that is not a socket stands at the socket path (it is left alone).
    case notASocket(path: String)
    /// Unix socket paths are limited to 107 bytes.
    case pathTooLong(path: String)
    /// A system call failed.
    case system(path: String, SocketErrno)

    /// One line for standard error.
    public var description: String {
        switch self {
        case .notAFolder(let path): "\(path): exists and is not a folder"
        case .ownedByOther(let path, let owner, let us): "\(path): owned by uid \(owner), not by us (uid \(us)); refusing to use it"
        case .writableByOthers(let path, let mode):
            "\(path): writable by other users (mode \(String(mode, radix: 8))); not trusting a socket in it (a session makes it private again)"
        case .notASocket(let path): "\(path): exists and is not a socket; leaving it alone"
        case .pathTooLong(let path): "\(path): longer than the \(UnixSocket.maxPathBytes) bytes a socket path may have"
        case .system(let path, let failure): "\(path): \(failure.description)"
        }
    }
}
