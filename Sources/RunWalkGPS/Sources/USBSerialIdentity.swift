import FoundationEssentials
import RunWalkIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A USB serial receiver's identity from sysfs (vendor, product and serial number), to find it
/// again when it comes back under another name and udev made no `/dev/serial/by-id` link.
///
/// sysfs links `class/tty/NAME/device` into the device tree; the USB device is the first folder
/// up from there that has `idVendor` (for ttyUSB, the port's interface's parent; for ttyACM,
/// the interface's parent).
public struct USBSerialIdentity: Sendable, Equatable, CustomStringConvertible {
    public var vendor: String
    public var product: String
    /// Many cheap receivers have none: then any device of the same vendor and product matches.
    public var serial: String?

    public init(vendor: String, product: String, serial: String?) {
        self.vendor = vendor
        self.product = product
        self.serial = serial
    }

    /// `1546:01a8` or `1546:01a8 serial 0001`.
    public var description: String { "\(vendor):\(product)" + (serial.map { " serial \($0)" } ?? "") }

    /// The identity of the tty `name` (`ttyUSB0`), read under `sysfs` (`/sys`); nil when it is
    /// not a USB device or not there.
    public static func of(ttyName name: String, sysfs: String) -> USBSerialIdentity? {
        guard let start = SerialPort.resolved("\(sysfs)/class/tty/\(name)/device") else { return nil }
        var folder = URL(fileURLWithPath: start)
        let top = URL(fileURLWithPath: sysfs).standardizedFileURL.path
        while folder.path.count > top.count {
            if let vendor = read(folder, "idVendor"), let product = read(folder, "idProduct") {
                return USBSerialIdentity(vendor: vendor, product: product, serial: read(folder, "serial"))
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// The ttys under `sysfs` with this identity, by name in order.
    public func ttyNames(sysfs: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(sysfs)/class/tty")) ?? []
        return names.sorted().filter { Self.of(ttyName: $0, sysfs: sysfs) == self }
    }

    private static func read(_ folder: URL, _ file: String) -> String? {
        guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else { return nil }
        let value = text.trimmingWhitespace()
        return value.isEmpty ? nil : value
    }
}
