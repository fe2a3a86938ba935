import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc functions Swift's Glibc module does not show (they are declared only with _GNU_SOURCE),
/// found by name at run time: glibc 2.34+ has them all (Debian 12: 2.36).
enum GlibcExtensions {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static func function<T>(_ name: String, as type: T.Type) -> T? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }  // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: type)
    }

    /// pipe2(2): both ends made with `flags` (O_CLOEXEC) at once, with no window in which another
    /// thread's spawn could inherit them.
    static func pipe2(_ descriptors: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
        guard let call = function("pipe2", as: Pipe2.self) else { errno = ENOSYS; return -1 }
        return call(descriptors, flags)
    }

    /// Closes every descriptor from `lowest` up in the child (glibc 2.34).
    static func addClosefrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32 {
        guard let call = function("posix_spawn_file_actions_addclosefrom_np", as: AddClosefrom.self) else { return ENOSYS }
        return call(actions, lowest)
    }

    /// Changes the child's working folder before the exec (glibc 2.29).
    static func addChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
        guard let call = function("posix_spawn_file_actions_addchdir_np", as: AddChdir.self) else { return ENOSYS }
        return path.withCString { call(actions, $0) }
    }
}
