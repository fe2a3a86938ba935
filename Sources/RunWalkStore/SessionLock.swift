#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkIO

/// An advisory lock (`flock`) on `locks/TOKEN.lock`, held by the process recording a session.
///
/// The kernel drops the lock when its holder dies, however it dies (SIGKILL included), so a
/// session marked `recording` whose lock can be taken was left open by a crash.
final class SessionLock: @unchecked Sendable {
    let path: String
    private var descriptor: Int32

    /// Takes the lock without waiting; nil when another process holds it or it cannot be made.
    init?(directory: String, token: String) {
        // Owner-only like the rest of the data folder (a lock's name says when someone runs).
        try? PrivateFolder.ensure(directory)
        path = directory + "/" + token + ".lock"
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, PrivateFolder.fileMode)
        guard descriptor >= 0 else { return nil }
        _ = fchmod(descriptor, PrivateFolder.fileMode)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
    }

    /// Whether a lock on `token` is held by a live process now.
    static func isHeld(directory: String, token: String) -> Bool {
        let path = directory + "/" + token + ".lock"
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) != 0
    }

    /// Releases the lock and removes its file.
    func release(removingFile: Bool = true) {
        guard descriptor >= 0 else { return }
        if removingFile { unlink(path) }
        close(descriptor)
        descriptor = -1
    }

    deinit { release(removingFile: false) }
}

/// The store-wide lock (`runwalk.lock` in the data folder): every recording process holds it shared
/// for as long as it records, and `recover --salvage` takes it exclusively, so a salvage never
/// moves a database a live session writes to, and a session never writes to one being salvaged.
/// (Not in `locks/`, whose files name sessions being recorded and go with them.)
final class StoreLock: @unchecked Sendable {
    private var descriptor: Int32

    /// The file's name in the data folder.
    static let fileName = "runwalk.lock"

    /// Takes the lock without waiting (`exclusive`: salvage; else shared: a recorder); nil when a
    /// holder of the other kind has it, or it cannot be made.
    init?(location: StoreLocation, exclusive: Bool) {
        descriptor = open(location.directory + "/" + Self.fileName, O_CREAT | O_RDWR | O_CLOEXEC, PrivateFolder.fileMode)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
    }

    /// Lets the lock go (the file stays: unlinking it could split later holders over two files).
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
