import CGio
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import RunWalkCore

/// A heart-rate strap as `runwalk sensors scan` lists it.
public struct HeartRateStrapInfo: Sendable, Equatable {
    /// `C0:FF:EE:00:12:34`.
    public var address: String
    public var name: String?
    /// Battery level (0x2A19), percent, when the strap offers it.
    public var batteryPercent: Int?
    /// Signal strength at discovery, dBm.
    public var rssi: Int?

    /// A strap's figures.
    public init(address: String, name: String?, batteryPercent: Int?, rssi: Int?) {
        self.address = address
        self.name = name
        self.batteryPercent = batteryPercent
        self.rssi = rssi
    }
}

/// What the strap client reports, on its own thread.
public enum HeartRateStrapEvent: Sendable, Equatable {
    /// Subscribed to the strap's Heart Rate Measurement.
    case connected(HeartRateStrapInfo)
    /// One notification.
    case measurement(HeartRateMeasurement)
    /// A notification that could not be read (short, empty): it is no heart rate.
    case malformed(String)
    /// `auto` found several straps: the first (`chosen`) is used, the others are named (said once).
    case several(chosen: String, others: [String])
    /// The strap is gone (out of range, flat, switched off) or could not be reached; said once
    /// per loss, then retried with backoff until it is back (`connected` again).
    case lost(String)
}

/// How often a lost strap is tried again: `initialSeconds`, doubling up to `maximumSeconds`.
public struct HeartRateRetry: Sendable, Equatable {
    public var initialSeconds = 1.0
    public var maximumSeconds = 30.0
    public init(initialSeconds: Double = 1, maximumSeconds: Double = 30) {
        self.initialSeconds = initialSeconds
        self.maximumSeconds = maximumSeconds
    }

    /// The wait before attempt `attempt` (from 0).
    public func delay(attempt: Int) -> Double {
        min(maximumSeconds, initialSeconds * Double(1 << min(attempt, 16)))
    }
}

/// A BLE heart-rate strap through BlueZ on the system bus (`DBUS_SYSTEM_BUS_ADDRESS` when set):
/// discovery filtered by the Heart Rate service (180d), `Device1.Connect`, `ServicesResolved`,
/// `StartNotify` on Heart Rate Measurement (2a37), its `Value` changes parsed as they come;
/// Battery Level (2a19) read when offered. Everything runs on a GLib thread of its own.
public final class HeartRateStrap: @unchecked Sendable {
    private let thread: GLibThread
    private let client: StrapClient

    private init(thread: GLibThread, client: StrapClient) {
        self.thread = thread
        self.client = client
    }

    /// Starts looking for the strap `choice` names (`auto`: the first with the Heart Rate service)
    /// and follows it until `stop()`; nil with the reason when there is no system bus at all.
    /// `busAddress` stands for the system bus (tests' stand-ins).
    public static func start(_ choice: HeartRateSensorChoice, retry: HeartRateRetry = HeartRateRetry(), busAddress: String? = nil,
                             onEvent: @escaping @Sendable (HeartRateStrapEvent) -> Void) -> Result<HeartRateStrap, DesktopError> {
        let thread = GLibThread(name: "runwalk-hr")
        let opened: Result<StrapClient, DesktopError> = thread.sync {
            BusConnection.open(G_BUS_TYPE_SYSTEM, address: busAddress).map { bus in
                let client = StrapClient(bus: bus, thread: thread, choice: choice, retry: retry, onEvent: onEvent)
                client.begin()
                return client
            }
        }
        switch opened {
        case .success(let client): return .success(HeartRateStrap(thread: thread, client: client))
        case .failure(let error):
            thread.stop()
            return .failure(error)
        }
    }

    /// Stops notifications, disconnects and closes the bus.
    public func stop() {
        thread.sync { [client] in client.stop() }
        thread.stop()
    }

    /// Discovers straps for `seconds` and lists them, each with its battery level when it can be read.
    public static func scan(seconds: Double, busAddress: String? = nil) -> Result<[HeartRateStrapInfo], DesktopError> {
        let thread = GLibThread(name: "runwalk-hr-scan")
        defer { thread.stop() }
        let bus: Result<BusConnection, DesktopError> = thread.sync { BusConnection.open(G_BUS_TYPE_SYSTEM, address: busAddress) }
        guard case .success(let connection) = bus else {
            if case .failure(let error) = bus { return .failure(error) }
            return .success([])
        }
        defer { thread.sync { connection.close() } }
        let scanner = StrapScanner(bus: connection)
        if let error = thread.sync({ scanner.startDiscovery() }) { return .failure(error) }
        usleep(useconds_t(max(0, seconds) * 1_000_000))
        return .success(thread.sync { scanner.finish() })
    }
}

/// Discovery and a battery read per strap, for `sensors scan` (called on the GLib thread).
private final class StrapScanner {
    let bus: BusConnection
    var adapter: String?
    init(bus: BusConnection) { self.bus = bus }

    func objects() -> BlueZObjects {
        guard case .success(let reply) = bus.call("org.bluez", "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", nil)
        else { return BlueZObjects() }
        defer { g_variant_unref(reply) }
        return BlueZObjects(managedObjects: reply)
    }

    func startDiscovery() -> DesktopError? {
        switch bus.call("org.bluez", "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", nil) {
        case .failure(let error): return DesktopError("no Bluetooth (BlueZ) on the system bus: \(error.description)")
        case .success(let reply):
            defer { g_variant_unref(reply) }
            adapter = BlueZObjects(managedObjects: reply).adapter
        }
        guard let adapter else { return DesktopError("no Bluetooth adapter") }
        let filter = GV.tuple([GV.dictionary([("UUIDs", GV.strings([BlueZObjects.heartRateService])), ("Transport", GV.string("le"))])])
        if case .success(let r) = bus.call("org.bluez", adapter, "org.bluez.Adapter1", "SetDiscoveryFilter", filter) { g_variant_unref(r) }
        switch bus.call("org.bluez", adapter, "org.bluez.Adapter1", "StartDiscovery", nil) {
        case .success(let r): g_variant_unref(r); return nil
        case .failure(let error): return DesktopError("cannot start discovery: \(error.description)")
        }
    }

    func finish() -> [HeartRateStrapInfo] {
        if let adapter, case .success(let r) = bus.call("org.bluez", adapter, "org.bluez.Adapter1", "StopDiscovery", nil) {
            g_variant_unref(r)
        }
        return objects().straps.map { strap in
            HeartRateStrapInfo(address: strap.address, name: strap.name, batteryPercent: battery(of: strap), rssi: strap.rssi)
        }
    }

    /// Connects (when not connected), waits up to 3 s for the services, reads 2a19, and leaves it as it was.
    private func battery(of strap: BlueZObjects.Strap) -> Int? {
        if !strap.connected {
            guard case .success(let r) = bus.call("org.bluez", strap.path, "org.bluez.Device1", "Connect", nil, timeoutMs: 10_000) else { return nil }
            g_variant_unref(r)
        }
        defer {
            if !strap.connected, case .success(let r) = bus.call("org.bluez", strap.path, "org.bluez.Device1", "Disconnect", nil) {
                g_variant_unref(r)
            }
        }
        var path: String?
        for _ in 0..<30 {
            path = objects().characteristic(BlueZObjects.batteryLevel, under: strap.path)
            if path != nil { break }
            usleep(100_000)
        }
        guard let path, case .success(let reply) = bus.call("org.bluez", path, "org.bluez.GattCharacteristic1", "ReadValue",
                                                             GV.tuple([GV.dictionary([])])) else { return nil }
        defer { g_variant_unref(reply) }
        guard let value = GV.child(reply, 0) else { return nil }
        defer { g_variant_unref(value) }
        guard case .bytes(let bytes)? = BlueZObjects.value(value), let level = bytes.first else { return nil }
        return Int(level)
    }
}
