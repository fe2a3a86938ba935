import CGio
import Glibc

/// A logind "sleep:idle" inhibitor (`org.freedesktop.login1` on the system bus): the device does
/// not suspend or blank into suspend while the file descriptor logind handed out is open.
final class SleepInhibitor: @unchecked Sendable {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the inhibitor; the error says why there is none (no logind, refused).
    static func take(on bus: BusConnection, why: String) -> Result<SleepInhibitor, DesktopError> {
        var error: UnsafeMutablePointer<GError>?
        var fds: UnsafeMutablePointer<GUnixFDList>?
        let parameters = GV.tuple([GV.string("sleep:idle"), GV.string("RunWalk"), GV.string(why), GV.string("block")])
        guard let reply = g_dbus_connection_call_with_unix_fd_list_sync(
            bus.connection, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "Inhibit",
            parameters, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &fds, nil, &error) else {
            return .failure(DesktopError("logind Inhibit: \(GV.message(error))"))
        }
        defer {
            g_variant_unref(reply)
            if let fds { g_object_unref(fds) }
        }
        guard let handle = GV.child(reply, 0), cgio_is_of_type(handle, "h") != 0, let fds else { return .failure(DesktopError("logind Inhibit: no file descriptor in the reply")) }
        let index = g_variant_get_handle(handle)
        g_variant_unref(handle)
        let fd = g_unix_fd_list_get(fds, index, &error) // a duplicate of ours to keep
        guard fd >= 0 else { return .failure(DesktopError("logind Inhibit: \(GV.message(error))")) }
        return .success(SleepInhibitor(fd: fd))
    }

    /// Releases the inhibitor (closing the descriptor is how logind learns it); idempotent.
    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }
}
