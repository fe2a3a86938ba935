import CGio
import RunWalkCore
import RunWalkRuntime

/// One desktop notification (org.freedesktop.Notifications) for the session, replaced (not
/// stacked) at each phase change, with Pause and Skip actions that reach the session.
final class PhaseNotifier: @unchecked Sendable {
    private let bus: BusConnection
    private let control: SessionControl
    private let appName: String
    private var subscription: guint = 0
    private var notificationID: UInt32 = 0
    private var shownKey: String?
    private var failed = false
    private let warn: @Sendable (String) -> Void

    private init(bus: BusConnection, control: SessionControl, appName: String, warn: @escaping @Sendable (String) -> Void) {
        self.bus = bus
        self.control = control
        self.appName = appName
        self.warn = warn
    }

    /// Subscribes to the server's action signal; fails when no notification server is there.
    static func start(bus: BusConnection, control: SessionControl, appName: String,
                      warn: @escaping @Sendable (String) -> Void) -> Result<PhaseNotifier, DesktopError> {
        guard HandsFree.serviceAvailable("org.freedesktop.Notifications", on: bus) else {
            return .failure(DesktopError("no notification server (org.freedesktop.Notifications) on the session bus"))
        }
        let notifier = PhaseNotifier(bus: bus, control: control, appName: appName, warn: warn)
        notifier.subscription = g_dbus_connection_signal_subscribe(
            bus.connection, nil, "org.freedesktop.Notifications", "ActionInvoked", "/org/freedesktop/Notifications", nil,
            G_DBUS_SIGNAL_FLAGS_NONE, notificationAction, Unmanaged.passUnretained(notifier).toOpaque(), nil)
        return .success(notifier)
    }

    /// What the notification says for `status`, and the key that changes only with the phase
    /// (or the session's end), so one phase gives one notification.
    static func content(_ status: SessionStatus) -> (key: String, summary: String, body: String)? {
        if status.isFinished {
            return ("end", status.stage == .completed ? "Workout complete" : "Workout stopped", status.workout)
        }
        guard let phase = status.phase, status.stage == .running || status.stage == .paused else { return nil }
        let summary = PhaseTitle.notification(kind: phase.kind, index: phase.index, count: status.phaseCount,
                                              plannedSeconds: phase.plannedSeconds, plannedMetres: phase.plannedMetres)
        return ("phase \(phase.index)", summary, status.workout)
    }

    /// Shows (replacing) the notification when the phase changed. On the GLib thread.
    func update(_ status: SessionStatus) {
        guard !failed, let content = Self.content(status), content.key != shownKey else { return }
        shownKey = content.key
        let actions = status.isFinished ? [] : ["pause", "Pause/Resume", "skip", "Skip"]
        let hints = GV.dictionary([("category", GV.string("x-runwalk.phase")), ("desktop-entry", GV.string("runwalk")),
                                   ("urgency", g_variant_new_byte(1))])
        let parameters = GV.tuple([GV.string(appName), GV.uint32(notificationID), GV.string("runwalk"), GV.string(content.summary),
                                   GV.string(content.body), GV.strings(actions), hints, GV.int32(-1)])
        switch bus.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                        "Notify", parameters) {
        case .success(let reply):
            defer { g_variant_unref(reply) }
            if let id = GV.child(reply, 0) {
                notificationID = g_variant_get_uint32(id)
                g_variant_unref(id)
            }
        case .failure(let failure):
            // Said once (a server that cannot start, e.g. dunst without a display); the run goes on.
            failed = true
            warn("runwalk: notifications off: \(failure)")
        }
    }

    fileprivate func action(id: UInt32, key: String) {
        guard id == notificationID, notificationID != 0 else { return }
        switch key {
        case "pause": control.send(.toggle)
        case "skip": control.send(.skip)
        default: break
        }
    }

    /// Withdraws the notification and stops listening for actions.
    func stop() {
        if subscription != 0 { g_dbus_connection_signal_unsubscribe(bus.connection, subscription) }
        subscription = 0
        if notificationID != 0, !failed,
           case .success(let reply) = bus.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                               "org.freedesktop.Notifications", "CloseNotification", GV.tuple([GV.uint32(notificationID)])) {
            g_variant_unref(reply)
        }
        notificationID = 0
    }
}

/// `ActionInvoked(u id, s action_key)`; `user_data` is the notifier, alive while subscribed.
private let notificationAction: GDBusSignalCallback = { _, _, _, _, _, parameters, userData in
    guard let userData, let parameters, let id = GV.child(parameters, 0), let key = GV.child(parameters, 1) else { return }
    defer { g_variant_unref(id); g_variant_unref(key) }
    let notifier = Unmanaged<PhaseNotifier>.fromOpaque(userData).takeUnretainedValue()
    notifier.action(id: g_variant_get_uint32(id), key: GV.text(key) ?? "")
}
