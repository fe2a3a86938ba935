import CGio
import FoundationEssentials

/// A private connection to the session or the system bus, opened on the GLib thread so its
/// signal subscriptions and exported objects dispatch there.
///
/// Private (not GLib's shared singleton) so that closing it at the end cannot disturb a GTK
/// app's own connection, and a bus that goes away never exits the process (`g_bus_get` would).
final class BusConnection: @unchecked Sendable {
    let connection: OpaquePointer
    /// "session bus" or "system bus", for messages.
    let name: String

    private init(connection: OpaquePointer, name: String) {
        self.connection = connection
        self.name = name
    }

    /// Connects to `type` (at `address` when given); the error says why not (no address, refused, not a bus).
    static func open(_ type: GBusType, address given: String? = nil) -> Result<BusConnection, DesktopError> {
        let name = type == G_BUS_TYPE_SYSTEM ? "system bus" : "session bus"
        var error: UnsafeMutablePointer<GError>?
        let address: String
        if let given {
            address = given
        } else if type == G_BUS_TYPE_SESSION, let found = sessionAddressWithoutAutolaunch() {
            address = found
        } else if type == G_BUS_TYPE_SESSION {
            return .failure(DesktopError("no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"))
        } else {
            guard let found = g_dbus_address_get_for_bus_sync(type, nil, &error) else {
                return .failure(DesktopError("no \(name) (\(GV.message(error)))"))
            }
            defer { g_free(found) }
            address = String(cString: found)
        }
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            return .failure(DesktopError("cannot connect to the \(name) (\(GV.message(error)))"))
        }
        g_dbus_connection_set_exit_on_close(connection, 0)
        return .success(BusConnection(connection: connection, name: name))
    }

    /// The session bus as the environment gives it, or the systemd user bus socket. Unlike
    /// GLib's lookup this never autolaunches a bus (dbus-launch) that would outlive the run.
    private static func sessionAddressWithoutAutolaunch() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
              FileManager.default.fileExists(atPath: runtime + "/bus") else { return nil }
        return "unix:path=\(runtime)/bus"
    }

    /// Calls `method` and waits up to `timeoutMs` for the reply (nil reply type: any).
    func call(_ destination: String, _ path: String, _ interface: String, _ method: String,
              _ parameters: OpaquePointer?, timeoutMs: Int32 = 3000) -> Result<OpaquePointer, DesktopError> {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(connection, destination, path, interface, method, parameters, nil,
                                                      G_DBUS_CALL_FLAGS_NONE, timeoutMs, nil, &error) else {
            return .failure(DesktopError("\(destination) \(method): \(GV.message(error))"))
        }
        return .success(reply)
    }

    /// Calls `method` without waiting for the reply (fire and forget: commands to other players).
    func send(_ destination: String, _ path: String, _ interface: String, _ method: String, _ parameters: OpaquePointer?) {
        g_dbus_connection_call(connection, destination, path, interface, method, parameters, nil,
                               G_DBUS_CALL_FLAGS_NONE, 3000, nil, nil, nil)
    }

    /// Asks the bus for `name`; true when this connection is its primary owner now.
    func requestName(_ name: String) -> Result<Bool, DesktopError> {
        // Flag 4 (DO_NOT_QUEUE): a taken name is refused at once rather than queued for later.
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
             GV.tuple([GV.string(name), GV.uint32(4)])).map { reply in
            defer { g_variant_unref(reply) }
            guard let code = GV.child(reply, 0) else { return false }
            defer { g_variant_unref(code) }
            return g_variant_get_uint32(code) == 1 // PRIMARY_OWNER
        }
    }

    /// Gives `name` back to the bus.
    func releaseName(_ name: String) {
        if case .success(let reply) = call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                           "ReleaseName", GV.tuple([GV.string(name)])) {
            g_variant_unref(reply)
        }
    }

    /// Flushes what is queued and closes the connection.
    func close() {
        g_dbus_connection_flush_sync(connection, nil, nil)
        g_dbus_connection_close_sync(connection, nil, nil)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(connection)) }
}

/// Why a hands-free service is not there, in words for the one line the runner sees.
public struct DesktopError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
