import CGio
import Dispatch
import FoundationEssentials
import RunWalkCore

/// The live side of `HeartRateStrap`: a small state machine on the GLib thread, moved on by
/// BlueZ's signals (InterfacesAdded/Removed, PropertiesChanged) and by retry timers.
final class StrapClient: @unchecked Sendable {
    private enum State { case searching, connecting, subscribed, waiting, stopped }

    private let bus: BusConnection
    private let thread: GLibThread
    private let choice: HeartRateSensorChoice
    private let retry: HeartRateRetry
    private let onEvent: @Sendable (HeartRateStrapEvent) -> Void
    private var state = State.searching
    private var subscriptions: [guint] = []
    private var adapter: String?
    private var discovering = false
    private var device: BlueZObjects.Strap?
    private var measurementPath: String?
    private var attempt = 0
    private var lostSaid = false
    private var severalSaid = false
    /// Bumped on every new wait, so an older retry timer does nothing.
    private var generation = 0

    init(bus: BusConnection, thread: GLibThread, choice: HeartRateSensorChoice, retry: HeartRateRetry,
         onEvent: @escaping @Sendable (HeartRateStrapEvent) -> Void) {
        self.bus = bus
        self.thread = thread
        self.choice = choice
        self.retry = retry
        self.onEvent = onEvent
    }

    /// Subscribes to BlueZ's signals and starts looking (on the GLib thread).
    func begin() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        subscriptions.append(g_dbus_connection_signal_subscribe(
            bus.connection, nil, "org.freedesktop.DBus.Properties", "PropertiesChanged", nil, nil,
            G_DBUS_SIGNAL_FLAGS_NONE, strapPropertiesChanged, me, nil))
        for member in ["InterfacesAdded", "InterfacesRemoved"] {
            subscriptions.append(g_dbus_connection_signal_subscribe(
                bus.connection, nil, "org.freedesktop.DBus.ObjectManager", member, "/", nil,
                G_DBUS_SIGNAL_FLAGS_NONE, strapObjectsChanged, me, nil))
        }
        search()
    }

    func stop() {
        if let measurementPath, state == .subscribed { _ = call(measurementPath, "org.bluez.GattCharacteristic1", "StopNotify") }
        if let device, state == .subscribed || state == .connecting { _ = call(device.path, "org.bluez.Device1", "Disconnect") }
        stopDiscovery()
        state = .stopped
        for id in subscriptions { g_dbus_connection_signal_unsubscribe(bus.connection, id) }
        subscriptions = []
        bus.close()
    }

    // MARK: Steps

    private func objects() -> BlueZObjects? {
        guard case .success(let reply) = bus.call("org.bluez", "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", nil)
        else { return nil }
        defer { g_variant_unref(reply) }
        return BlueZObjects(managedObjects: reply)
    }

    /// Looks for the strap among BlueZ's devices; discovery runs until it appears.
    private func search() {
        guard state == .searching else { return }
        guard let objects = objects() else { return lost("no Bluetooth (BlueZ) on the system bus") }
        adapter = adapter ?? objects.adapter
        let found = objects.straps.first { strap in
            if case .address(let address) = choice { return strap.address == address }
            return true
        }
        if case .auto = choice, !severalSaid, let found, objects.straps.count > 1 {
            severalSaid = true
            onEvent(.several(chosen: found.address, others: objects.straps.dropFirst().map(\.address)))
        }
        guard let found else {
            guard !discovering, let adapter else { return }
            let filter = GV.tuple([GV.dictionary([("UUIDs", GV.strings([BlueZObjects.heartRateService])), ("Transport", GV.string("le"))])])
            _ = call(adapter, "org.bluez.Adapter1", "SetDiscoveryFilter", filter)
            discovering = call(adapter, "org.bluez.Adapter1", "StartDiscovery") == nil
            return
        }
        stopDiscovery()
        device = found
        state = .connecting
        if let failure = call(found.path, "org.bluez.Device1", "Connect", timeoutMs: 15_000) {
            state = .searching
            return lost("\(found.name ?? found.address): \(failure)")
        }
        if found.servicesResolved || (self.objects()?.straps.first { $0.path == found.path }?.servicesResolved ?? false) {
            subscribe()
        }
    }

    /// Services resolved: notifications on, the battery read.
    private func subscribe() {
        guard state == .connecting, let device, let objects = objects() else { return }
        guard let measurement = objects.characteristic(BlueZObjects.heartRateMeasurement, under: device.path) else {
            return lost("\(device.name ?? device.address) has no Heart Rate Measurement characteristic")
        }
        if let failure = call(measurement, "org.bluez.GattCharacteristic1", "StartNotify") { return lost(failure) }
        measurementPath = measurement
        state = .subscribed
        attempt = 0
        lostSaid = false
        var info = HeartRateStrapInfo(address: device.address, name: device.name, batteryPercent: nil, rssi: device.rssi)
        if let battery = objects.characteristic(BlueZObjects.batteryLevel, under: device.path),
           case .success(let reply) = bus.call("org.bluez", battery, "org.bluez.GattCharacteristic1", "ReadValue", GV.tuple([GV.dictionary([])])) {
            if let value = GV.child(reply, 0) {
                if case .bytes(let bytes)? = BlueZObjects.value(value) { info.batteryPercent = bytes.first.map(Int.init) }
                g_variant_unref(value)
            }
            g_variant_unref(reply)
        }
        onEvent(.connected(info))
    }

    /// The strap is gone or out of reach: said once, then tried again with backoff.
    private func lost(_ reason: String) {
        guard state != .stopped else { return }
        if !lostSaid {
            lostSaid = true
            onEvent(.lost(reason))
        }
        state = .waiting
        measurementPath = nil
        generation += 1
        let mine = generation
        let delay = retry.delay(attempt: attempt)
        attempt += 1
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [thread, weak self] in
            thread.async { [weak self] in
                guard let self, self.generation == mine, self.state == .waiting else { return }
                self.state = .searching
                self.search()
            }
        }
    }

    private func stopDiscovery() {
        guard discovering, let adapter else { return }
        discovering = false
        _ = call(adapter, "org.bluez.Adapter1", "StopDiscovery")
    }

    /// Calls a BlueZ method; the error's text, or nil when it succeeded.
    private func call(_ path: String, _ interface: String, _ method: String, _ parameters: OpaquePointer? = nil,
                      timeoutMs: Int32 = 5000) -> String? {
        switch bus.call("org.bluez", path, interface, method, parameters, timeoutMs: timeoutMs) {
        case .success(let reply):
            g_variant_unref(reply)
            return nil
        case .failure(let error): return error.description
        }
    }

    // MARK: Signals

    fileprivate func propertiesChanged(path: String, interface: String, changed: BlueZObjects.Properties) {
        switch interface {
        case "org.bluez.GattCharacteristic1" where path == measurementPath && state == .subscribed:
            guard case .bytes(let bytes)? = changed["Value"] else { return }
            do {
                onEvent(.measurement(try HeartRateMeasurement(bytes: bytes)))
            } catch {
                onEvent(.malformed(error.description))
            }
        case "org.bluez.Device1" where path == device?.path:
            if changed["Connected"] == .flag(false), state == .subscribed || state == .connecting {
                lost("\(device?.name ?? device?.address ?? "strap"): disconnected")
            } else if changed["ServicesResolved"] == .flag(true), state == .connecting {
                subscribe()
            }
        default: break
        }
    }

    fileprivate func objectsChanged() {
        if state == .searching { search() }
    }
}

private let strapPropertiesChanged: GDBusSignalCallback = { _, _, path, _, _, parameters, userData in
    guard let userData, let parameters, let path, let interface = GV.child(parameters, 0), let changed = GV.child(parameters, 1) else { return }
    defer { g_variant_unref(interface); g_variant_unref(changed) }
    Unmanaged<StrapClient>.fromOpaque(userData).takeUnretainedValue()
        .propertiesChanged(path: String(cString: path), interface: GV.text(interface) ?? "", changed: BlueZObjects.properties(changed))
}

private let strapObjectsChanged: GDBusSignalCallback = { _, _, _, _, _, _, userData in
    guard let userData else { return }
    Unmanaged<StrapClient>.fromOpaque(userData).takeUnretainedValue().objectsChanged()
}
