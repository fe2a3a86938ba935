import Foundation
import Testing
import RunWalkCore
import RunWalkGPS
import RunWalkRuntime
import RunWalkTestSupport

/// A USB receiver unplugged and plugged back in comes back under another name (ttyUSB0 →
/// ttyUSB1); udev's `/dev/serial/by-id` link follows it. Here two pseudo-terminals stand for the
/// two names, and a folder of the test's own for by-id.
@Suite("SerialSource follows a receiver by its stable name (pseudo-terminals)", .serialized)
struct SerialFollowTests {
    @Test("ttyUSB0 unplugged, back as ttyUSB1: the by-id link is reopened and fixes go on")
    func followsTheLink() async throws {
        // Both exist from the start, so the second cannot be given the first one's number.
        let first = try PseudoTerminal(), second = try PseudoTerminal()
        defer { first.close(); second.close() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rw-by-id-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = folder + "/usb-RunWalk_Test_GPS_0001-if00-port0"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: first.devicePath)
        // Another device's link, which must not be taken for ours.
        try FileManager.default.createSymbolicLink(atPath: folder + "/usb-Other_Modem-if00", withDestinationPath: "/dev/null")

        var source = SerialSource(path: first.devicePath, baud: 115_200)
        source.stableNamesFolder = folder
        // Unplugged: udev removes the link as the device goes, and makes it again for the new name.
        let collector = try await Self.replug(source, first: first, second: second, what: "link",
                                              unplug: { try FileManager.default.removeItem(atPath: link) },
                                              plugBack: { try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: second.devicePath) })
        let connected = collector.events.compactMap { if case .connected(let text) = $0 { text } else { nil } }
        #expect(connected == ["opened \(first.devicePath) at 115200 baud (followed as \(link) if it comes back under another name)",
                              "opened \(link) (now \(second.devicePath)) at 115200 baud"])
        let problemWords = collector.events.compactMap { if case .problem(let text) = $0 { text ?? "none" } else { nil } }
        #expect(problemWords == ["receiver not connected", "none"])
    }

    @Test("no by-id link: the receiver is found again by its USB identity in sysfs (vendor, product, serial)")
    func followsTheUSBIdentity() async throws {
        let first = try PseudoTerminal(), second = try PseudoTerminal()
        defer { first.close(); second.close() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rw-sysfs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sysfs = root + "/sys", byID = root + "/by-id"
        try FileManager.default.createDirectory(atPath: byID, withIntermediateDirectories: true)
        // A USB device with its interface, and the tty's class link into it, as the kernel lays them out.
        @Sendable func plug(_ terminal: PseudoTerminal?, port: String, serial: String = "RW0001", product: String = "01a8", name other: String = "") throws {
            let device = "\(sysfs)/devices/pci0000:00/usb1/\(port)"
            try FileManager.default.createDirectory(atPath: device + "/\(port):1.0", withIntermediateDirectories: true)
            try "1546\n".write(toFile: device + "/idVendor", atomically: true, encoding: .utf8)
            try "\(product)\n".write(toFile: device + "/idProduct", atomically: true, encoding: .utf8)
            try "\(serial)\n".write(toFile: device + "/serial", atomically: true, encoding: .utf8)
            let name = terminal.map { URL(fileURLWithPath: $0.devicePath).lastPathComponent } ?? other
            try FileManager.default.createDirectory(atPath: "\(sysfs)/class/tty/\(name)", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: "\(sysfs)/class/tty/\(name)/device", withDestinationPath: device + "/\(port):1.0")
        }
        try plug(first, port: "1-1")
        // A serial port that is not USB, and another receiver of the same model: neither may be taken.
        try FileManager.default.createDirectory(atPath: sysfs + "/class/tty/ttyS0", withIntermediateDirectories: true)
        try plug(nil, port: "1-3", serial: "RW0002", name: "ttyACM9")
        let firstName = URL(fileURLWithPath: first.devicePath).lastPathComponent
        let identity = try #require(USBSerialIdentity.of(ttyName: firstName, sysfs: sysfs))
        #expect(identity == USBSerialIdentity(vendor: "1546", product: "01a8", serial: "RW0001"))
        #expect(USBSerialIdentity.of(ttyName: "ttyS0", sysfs: sysfs) == nil)
        #expect(identity.ttyNames(sysfs: sysfs) == [firstName], "not the other receiver of the same model")

        var source = SerialSource(path: first.devicePath, baud: 115_200)
        source.stableNamesFolder = byID
        source.sysfsFolder = sysfs
        let collector = try await Self.replug(source, first: first, second: second, what: "sysfs") {
            let name = URL(fileURLWithPath: first.devicePath).lastPathComponent
            try FileManager.default.removeItem(atPath: "\(sysfs)/class/tty/\(name)")
            try FileManager.default.removeItem(atPath: "\(sysfs)/devices/pci0000:00/usb1/1-1")
            try plug(second, port: "1-2")
        }
        let connected = collector.events.compactMap { if case .connected(let text) = $0 { text } else { nil } }
        // The old node can still be opened for a moment after its master closed (it hangs up at
        // once): on a loaded machine the source may reopen it once before the new one is found.
        #expect(connected.first == "opened \(first.devicePath) at 115200 baud (USB 1546:01a8 serial RW0001, followed if it comes back under another name)")
        #expect(connected.last == "opened \(second.devicePath) at 115200 baud (the USB receiver 1546:01a8 serial RW0001 that was \(first.devicePath))",
                "\(connected)")
    }

    @Test("the stable name: the path itself when it is one; else the link to the same node; nil without one")
    func stableName() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rw-by-id-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(SerialPort.stableName(of: terminal.devicePath, in: folder) == nil, "an empty folder")
        #expect(SerialPort.stableName(of: terminal.devicePath, in: folder + "/absent") == nil, "no folder (no udev)")
        try FileManager.default.createSymbolicLink(atPath: folder + "/b-gps", withDestinationPath: terminal.devicePath)
        try FileManager.default.createSymbolicLink(atPath: folder + "/a-other", withDestinationPath: "/dev/null")
        #expect(SerialPort.stableName(of: terminal.devicePath, in: folder) == folder + "/b-gps")
        #expect(SerialPort.stableName(of: folder + "/b-gps", in: folder) == folder + "/b-gps")
        #expect(SerialPort.stableName(of: "/dev/runwalk-no-such-tty", in: folder) == nil)
    }
}

extension SerialFollowTests {
    /// The replug both follow tests play on two pseudo-terminals: demo-short's first 20 epochs
    /// through `first`; the receiver unplugged (`unplug`, then `first` closed); once the source
    /// has noticed the loss, plugged back in as `second` (`plugBack`), and the next 20 epochs
    /// through it once the source has opened it. Checks that nothing went wrong on the writer
    /// thread (a failed `unplug` or `plugBack` is told as "`what`: error") and that every fix
    /// before and after the replug came; returns what the source said.
    static func replug(_ source: SerialSource, first: PseudoTerminal, second: PseudoTerminal, what: String,
                       unplug: @escaping @Sendable () throws -> Void = {}, plugBack: @escaping @Sendable () throws -> Void,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws -> SourceCollector {
        let epochs = Array(try NMEAEpochs.load(Repository.sampleTrack("demo-short.nmea")).prefix(40))
        let before = epochs.prefix(20).flatMap { $0 }, after = epochs.dropFirst(20).flatMap { $0 }
        let expected = Array(try fileFixes(Repository.sampleTrack("demo-short.nmea")).prefix(40))
        let collector = SourceCollector()
        let problems = LinkProblems()
        let writer = Thread {
            func connections() -> Int { collector.events.filter { if case .connected = $0 { true } else { false } }.count }
            // Generous: in a full test run the collector's task can wait long for a thread.
            func wait(_ condition: () -> Bool) -> Bool {
                let deadline = Date().addingTimeInterval(90)
                while !condition() { if Date() > deadline { return false }; Thread.sleep(forTimeInterval: 0.01) }
                return true
            }
            guard wait({ connections() >= 1 }) else { return problems.add("never opened") }
            first.write(lines: before, baud: 115_200)
            guard wait({ collector.fixes.count >= 19 }) else { return problems.add("first half did not arrive") }
            do { try unplug() } catch { return problems.add("\(what): \(error)") }
            first.close()
            guard wait({ collector.events.contains { if case .unavailable = $0 { true } else { false } } }) else {
                return problems.add("the loss was not noticed")
            }
            do { try plugBack() } catch { return problems.add("\(what): \(error)") }
            // Written only once the new node is open (opening flushes what was sent before).
            guard wait({ opened(second.devicePath, in: collector.events) }) else { return problems.add("not reopened under its new name") }
            second.write(lines: after, baud: 115_200)
        }
        writer.start()
        var source = source
        source.backoffInitialSeconds = 0.02
        source.backoffMaximumSeconds = 0.05
        // The last epoch completes only with the stream's end: wait for the one before it.
        let last = expected[expected.count - 2].time
        await collector.runOnSourceThread(source, seconds: 120) { events in
            events.contains { if case .fix(let fix) = $0 { fix.time >= last } else { false } }
        }
        #expect(problems.all.isEmpty, "\(problems.all)", sourceLocation: sourceLocation)
        let times = Set(collector.fixes.map(\.time))
        #expect(expected.dropLast().allSatisfy { times.contains($0.time) }, "every fix before and after the replug, up to \(last)",
                sourceLocation: sourceLocation)
        return collector
    }

    /// Whether the source has said it opened `node` (by its own name or as where a link now leads).
    static func opened(_ node: String, in events: [LocationEvent]) -> Bool {
        events.contains { if case .connected(let text) = $0 { text.hasPrefix("opened \(node) ") || text.contains("(now \(node))") } else { false } }
    }
}

/// What went wrong on the writer thread.
final class LinkProblems: @unchecked Sendable {
    private let lock = NSLock()
    private var problems: [String] = []

    func add(_ problem: String) { lock.withLock { problems.append(problem) } }
    var all: [String] { lock.withLock { problems } }
}
