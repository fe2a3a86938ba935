import CGio
import Dispatch
import RunWalkRuntime

/// The session as an MPRIS media player (`org.mpris.MediaPlayer2.runwalk`): lock screens,
/// headsets (through BlueZ's `mpris-proxy`) and `playerctl` see the phase as the track and
/// send pause, resume, skip, restart and stop through the session's `SessionControl`.
///
/// Lives on the GLib thread: set up, method calls, property reads and signals all run there.
final class MPRISServer: @unchecked Sendable {
    private let bus: BusConnection
    private let control: SessionControl
    private let thread: GLibThread
    private var registrations: [guint] = []
    private var vtables: [UnsafeMutableRawPointer] = []
    private var nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>?
    /// The bus name owned, once owned.
    private(set) var busName: String?
    private var shown: PlayerState?
    private var latest: PlayerState?
    private var lastSignal: DispatchTime?

    private init(bus: BusConnection, control: SessionControl, thread: GLibThread) {
        self.bus = bus
        self.control = control
        self.thread = thread
    }

    /// Exports the player and owns its name (with `.instancePID` appended when taken). On the GLib thread.
    static func start(bus: BusConnection, control: SessionControl, thread: GLibThread) -> Result<MPRISServer, DesktopError> {
        let server = MPRISServer(bus: bus, control: control, thread: thread)
        if let failure = server.export() { return .failure(failure) }
        return .success(server)
    }

    private func export() -> DesktopError? {
        var error: UnsafeMutablePointer<GError>?
        guard let info = g_dbus_node_info_new_for_xml(MPRISInterfaces.xml, &error) else {
            return DesktopError("MPRIS interfaces: \(GV.message(error))")
        }
        nodeInfo = info
        let me = Unmanaged.passUnretained(self).toOpaque()
        for name in [MPRISInterfaces.root, MPRISInterfaces.player] {
            guard let interface = g_dbus_node_info_lookup_interface(info, name) else { return DesktopError("MPRIS: no \(name) in the XML") }
            var vtable: UnsafeMutableRawPointer?
            let id = cgio_register_object(bus.connection, MPRISInterfaces.objectPath, interface, mprisMethodCall, mprisGetProperty,
                                          me, &vtable, &error)
            if let vtable { vtables.append(vtable) }
            guard id != 0 else { return DesktopError("cannot export MPRIS on the \(bus.name): \(GV.message(error))") }
            registrations.append(id)
        }
        let base = "org.mpris.MediaPlayer2.runwalk"
        for candidate in [base, "\(base).instance\(getpid())"] {
            switch bus.requestName(candidate) {
            case .success(true):
                busName = candidate
                return nil
            case .success(false): continue
            case .failure(let failure): return failure
            }
        }
        return DesktopError("the MPRIS name \(base) and its instance name are taken")
    }

    /// A new status from the session (on the GLib thread): signals what changed.
    func update(_ status: SessionStatus) {
        let state = PlayerState(status)
        latest = state
        guard state != shown else { return }
        let now = DispatchTime.now()
        // Countdown-only changes at most once a second (a title ticking at --speed 10 would flood the bus).
        if !state.changesMoreThanCountdown(from: shown), let lastSignal,
           now.uptimeNanoseconds - lastSignal.uptimeNanoseconds < 1_000_000_000 { return }
        var changed: [(String, OpaquePointer)] = []
        if state.playbackStatus != shown?.playbackStatus { changed.append(("PlaybackStatus", GV.string(state.playbackStatus))) }
        changed.append(("Metadata", metadata(state)))
        changed.append(("Position", GV.int64(state.positionMicroseconds)))
        shown = state
        lastSignal = now
        var error: UnsafeMutablePointer<GError>?
        let parameters = GV.tuple([GV.string(MPRISInterfaces.player), GV.dictionary(changed), GV.strings([])])
        if g_dbus_connection_emit_signal(bus.connection, nil, MPRISInterfaces.objectPath, "org.freedesktop.DBus.Properties",
                                         "PropertiesChanged", parameters, &error) == 0 {
            _ = GV.message(error) // a closed bus: the next stop says so; nothing to tell the runner mid-run
        }
    }

    /// Unexports the player and gives its name back (on the GLib thread).
    func stop() {
        if let busName { bus.releaseName(busName) }
        busName = nil
        for id in registrations { g_dbus_connection_unregister_object(bus.connection, id) }
        registrations = []
        for vtable in vtables { g_free(vtable) }
        vtables = []
        if let nodeInfo { g_dbus_node_info_unref(nodeInfo) }
        nodeInfo = nil
    }

    private func metadata(_ state: PlayerState) -> OpaquePointer {
        var entries: [(String, OpaquePointer)] = [
            ("mpris:trackid", GV.objectPath(state.trackID)),
            ("xesam:title", GV.string(state.title)),
            ("xesam:artist", GV.strings([state.artist])),
            ("xesam:album", GV.string("RunWalk")),
        ]
        if let length = state.lengthMicroseconds { entries.append(("mpris:length", GV.int64(length))) }
        return GV.dictionary(entries)
    }

    fileprivate func call(_ method: String) -> Bool {
        let waiting = control.status.map { $0.stage == .waitingForFix || $0.stage == .startCountdown } ?? false
        switch method {
        case "PlayPause": control.send(waiting ? .start : .toggle)
        case "Play": control.send(waiting ? .start : .resume)
        case "Pause": control.send(.pause)
        case "Next": control.send(.skip)
        case "Previous": control.send(.restart)
        case "Stop": control.send(.stop)
        case "Raise", "Quit", "Seek", "SetPosition", "OpenUri": break // no window to raise; a workout has no seeking
        default: return false
        }
        return true
    }

    fileprivate func property(_ name: String) -> OpaquePointer? {
        let state = latest ?? shown
        switch name {
        case "CanQuit", "CanRaise", "HasTrackList", "CanSeek": return GV.bool(false)
        case "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanControl": return GV.bool(true)
        case "Identity": return GV.string("RunWalk")
        case "SupportedUriSchemes", "SupportedMimeTypes": return GV.strings([])
        case "PlaybackStatus": return GV.string(state?.playbackStatus ?? "Stopped")
        case "Rate", "MinimumRate", "MaximumRate": return GV.double(1)
        case "Metadata": return state.map(metadata) ?? GV.dictionary([])
        case "Position": return GV.int64(state?.positionMicroseconds ?? 0)
        default: return nil
        }
    }
}

/// GDBus calls these on the GLib thread; `user_data` is the (unretained) server, alive while registered.
private let mprisMethodCall: GDBusInterfaceMethodCallFunc = { _, _, _, _, method, _, invocation, userData in
    guard let userData, let method, let invocation else { return }
    let server = Unmanaged<MPRISServer>.fromOpaque(userData).takeUnretainedValue()
    if server.call(String(cString: method)) {
        g_dbus_method_invocation_return_value(invocation, nil)
    } else {
        g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "no such method")
    }
}

private let mprisGetProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, _, name, _, userData in
    guard let userData, let name else { return nil }
    return Unmanaged<MPRISServer>.fromOpaque(userData).takeUnretainedValue().property(String(cString: name))
}
