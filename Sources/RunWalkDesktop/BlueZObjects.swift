import CGio

/// BlueZ's objects as the heart-rate client reads them (org.bluez.*(5)): each object path's
/// interfaces and their properties, converted from GVariants into plain values once.
struct BlueZObjects {
    /// A property value of the kinds BlueZ uses here.
    enum Value: Equatable {
        case text(String)
        case flag(Bool)
        case texts([String])
        case bytes([UInt8])
        case number(Int64)
    }

    typealias Properties = [String: Value]

    /// Interfaces by object path.
    var objects: [String: [String: Properties]] = [:]

    /// The full 128-bit form of a 16-bit Bluetooth SIG UUID (`180d` → `0000180d-0000-1000-8000-00805f9b34fb`).
    static func uuid(_ short: String) -> String { "0000\(short)-0000-1000-8000-00805f9b34fb" }
    static let heartRateService = uuid("180d")
    static let heartRateMeasurement = uuid("2a37")
    static let batteryLevel = uuid("2a19")

    /// Reads a `GetManagedObjects` reply, `(a{oa{sa{sv}}})`.
    init(managedObjects reply: OpaquePointer) {
        guard let dictionary = GV.child(reply, 0) else { return }
        defer { g_variant_unref(dictionary) }
        for index in 0..<Int(g_variant_n_children(dictionary)) {
            guard let entry = GV.child(dictionary, index) else { continue }
            defer { g_variant_unref(entry) }
            guard let pathValue = GV.child(entry, 0), let interfaces = GV.child(entry, 1) else { continue }
            defer { g_variant_unref(pathValue); g_variant_unref(interfaces) }
            guard let path = GV.text(pathValue) else { continue }
            objects[path] = Self.interfaces(interfaces)
        }
    }

    init() {}

    /// `a{sa{sv}}`: properties by interface.
    static func interfaces(_ value: OpaquePointer) -> [String: Properties] {
        var result: [String: Properties] = [:]
        for index in 0..<Int(g_variant_n_children(value)) {
            guard let entry = GV.child(value, index) else { continue }
            defer { g_variant_unref(entry) }
            guard let name = GV.child(entry, 0), let properties = GV.child(entry, 1) else { continue }
            defer { g_variant_unref(name); g_variant_unref(properties) }
            if let interface = GV.text(name) { result[interface] = Self.properties(properties) }
        }
        return result
    }

    /// `a{sv}`.
    static func properties(_ value: OpaquePointer) -> Properties {
        var result: Properties = [:]
        for index in 0..<Int(g_variant_n_children(value)) {
            guard let entry = GV.child(value, index) else { continue }
            defer { g_variant_unref(entry) }
            guard let name = GV.child(entry, 0), let boxed = GV.child(entry, 1) else { continue }
            defer { g_variant_unref(name); g_variant_unref(boxed) }
            if let key = GV.text(name), let converted = Self.value(boxed) { result[key] = converted }
        }
        return result
    }

    /// One value (a `v` is opened).
    static func value(_ value: OpaquePointer) -> Value? {
        if cgio_is_of_type(value, "v") != 0 {
            let inner = g_variant_get_variant(value)
            defer { if let inner { g_variant_unref(inner) } }
            return inner.flatMap(Self.value)
        }
        if cgio_is_of_type(value, "b") != 0 { return .flag(g_variant_get_boolean(value) != 0) }
        if cgio_is_of_type(value, "n") != 0 { return .number(Int64(g_variant_get_int16(value))) }
        if cgio_is_of_type(value, "u") != 0 { return .number(Int64(g_variant_get_uint32(value))) }
        if cgio_is_of_type(value, "y") != 0 { return .number(Int64(g_variant_get_byte(value))) }
        if cgio_is_of_type(value, "ay") != 0 {
            var count: gsize = 0
            guard let data = g_variant_get_fixed_array(value, &count, 1) else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: Int(count))))
        }
        if cgio_is_of_type(value, "as") != 0 {
            var texts: [String] = []
            for index in 0..<Int(g_variant_n_children(value)) {
                guard let child = GV.child(value, index) else { continue }
                if let text = GV.text(child) { texts.append(text) }
                g_variant_unref(child)
            }
            return .texts(texts)
        }
        return GV.text(value).map(Value.text)
    }

    /// A heart-rate strap BlueZ knows of.
    struct Strap: Equatable {
        var path: String
        var address: String
        var name: String?
        var connected: Bool
        var servicesResolved: Bool
        var rssi: Int?
    }

    /// Devices offering the Heart Rate service, by path order.
    var straps: [Strap] {
        objects.keys.sorted().compactMap { path in
            guard let device = objects[path]?["org.bluez.Device1"],
                  case .texts(let uuids)? = device["UUIDs"], uuids.map({ $0.lowercased() }).contains(Self.heartRateService),
                  case .text(let address)? = device["Address"] else { return nil }
            var name: String?
            if case .text(let alias)? = device["Alias"] { name = alias } else if case .text(let n)? = device["Name"] { name = n }
            var rssi: Int?
            if case .number(let value)? = device["RSSI"] { rssi = Int(value) }
            return Strap(path: path, address: address.uppercased(), name: name, connected: device["Connected"] == .flag(true),
                         servicesResolved: device["ServicesResolved"] == .flag(true), rssi: rssi)
        }
    }

    /// The path of the characteristic `uuid` under the device at `devicePath`.
    func characteristic(_ uuid: String, under devicePath: String) -> String? {
        objects.keys.sorted().first { path in
            guard path.hasPrefix(devicePath + "/"), let properties = objects[path]?["org.bluez.GattCharacteristic1"],
                  case .text(let found)? = properties["UUID"] else { return false }
            return found.lowercased() == uuid
        }
    }

    /// The first adapter's path.
    var adapter: String? {
        objects.keys.sorted().first { objects[$0]?["org.bluez.Adapter1"] != nil }
    }
}
