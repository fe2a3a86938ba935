import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore
import RunWalkRuntime

/// Fixes from a receiver on a serial port, read directly (no gpsd): the device is opened in
/// raw mode at `baud`, its bytes split into lines and decoded.
///
/// When the device goes away (unplugged), the epoch in hand is delivered, the loss reported,
/// and the device reopened with a growing delay until it is back or the consumer stops. A USB
/// receiver plugged back in often comes back under another name (ttyUSB0 → ttyUSB1), so the
/// device is followed by its stable name: at the first open, the link in `/dev/serial/by-id`
/// that points at `path` (udev's, made from the USB vendor, model and serial number) is
/// remembered and reopened from then on.
public struct SerialSource: LocationSource {
    /// The device as the user named it.
    public var path: String
    public var baud: Int
    /// Reopening delays.
    public var backoffInitialSeconds = 0.5
    public var backoffMaximumSeconds = 4.0
    /// Where udev keeps the stable names of serial devices (tests use a folder of their own).
    public var stableNamesFolder = "/dev/serial/by-id"
    /// Where sysfs is, for a USB receiver's identity when there is no stable name (tests use a tree of their own).
    public var sysfsFolder = "/sys"

    public init(path: String, baud: Int = 9600) {
        self.path = path
        self.baud = baud
    }

    public var description: String { "serial device \(path) at \(baud) baud" }

    /// The status's few words while the device is missing.
    static let absent = "receiver not connected"

    public func events() -> AsyncStream<LocationEvent> {
        let source = self
        return threadedStream(name: "runwalk.serial") { continuation, stop in
            source.serve({ continuation.yield($0) }, stop)
        }
    }

    /// Feeds `sink` from the reading thread itself (the session loop handles each fix there).
    public func start(sink: @escaping @Sendable (LocationEvent?) -> Void) -> (@Sendable () -> Void)? {
        let stop = StopFlag()
        let source = self
        NamedThread.start(name: "runwalk.serial") {
            source.serve({ sink($0) }, stop)
            sink(nil)
        }
        return { stop.set() }
    }

    private func serve(_ emit: (LocationEvent) -> Void, _ stop: StopFlag) {
        var backoff = Backoff(initialSeconds: backoffInitialSeconds, maximumSeconds: backoffMaximumSeconds)
        var failures = FailureReporter()
        // Live: no reordering, and before the first date at most two epochs wait for it (a
        // receiver whose RMC comes after its GLL would otherwise give a first fix of 1970).
        var decoder = NMEADecoder(datelessHoldLimit: NMEADecoder.liveDatelessHoldLimit, reorderDepth: 0)
        var framer = NMEALineFramer()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        // The stable name found at the first open; reopened instead of `path` from then on.
        var followed: String?
        // Without one: the USB identity seen at the first open, and the node it was last found at.
        var identity: USBSerialIdentity?
        var current = path
        while !stop.isSet {
            // A receiver followed by its USB identity: its old node may have gone to another
            // device since (tty names are reused), so only a node with that identity is opened.
            if followed == nil, let identity, !holds(identity, node: current) {
                if let node = relocated(identity, from: current), node != current {
                    current = node
                } else {
                    failures.report("serial device \(current): the USB receiver \(identity) is not there; retrying",
                                    problem: Self.absent, to: emit)
                    if !stop.sleep(seconds: backoff.next()) { return }
                    continue
                }
            }
            let fd: Int32
            let opening = followed ?? current
            do {
                fd = try SerialPort.open(path: opening, baud: baud)
            } catch {
                failures.report("\(error.description); retrying", problem: Self.absent, to: emit)
                if let identity, let node = relocated(identity, from: current), node != current {
                    // The same receiver under another name: try it at once.
                    current = node
                    continue
                }
                if !stop.sleep(seconds: backoff.next()) { return }
                continue
            }
            var opened = "opened \(opening) at \(baud) baud"
            if let followed {
                if let node = SerialPort.resolved(followed), node != path { opened = "opened \(followed) (now \(node)) at \(baud) baud" }
            } else if let identity {
                if current != path { opened += " (the USB receiver \(identity) that was \(path))" }
            } else if let link = SerialPort.stableName(of: path, in: stableNamesFolder) {
                followed = link
                if link != path { opened += " (followed as \(link) if it comes back under another name)" }
            } else if let node = SerialPort.resolved(path),
                      let found = USBSerialIdentity.of(ttyName: URL(fileURLWithPath: node).lastPathComponent, sysfs: sysfsFolder) {
                identity = found
                opened += " (USB \(found), followed if it comes back under another name)"
            }
            if failures.hasReported { emit(.problem(nil)) }
            emit(.connected(opened))
            failures.reset()
            backoff.reset()
            var badSoFar = decoder.statistics.linesBad
            let lost = read(fd, buffer, &framer, &decoder, &badSoFar, emit, stop)
            Glibc.close(fd)
            // Deliver the epoch in hand; a reopened device starts with fresh lines.
            framer.finish { line in feed(line, &decoder, emit) }
            framer = NMEALineFramer()
            for fix in decoder.finish() { emit(.fix(fix)) }
            guard let lost else { return }
            failures.report("serial device \(opening): \(lost); waiting for it to come back", problem: Self.absent, to: emit)
            if !stop.sleep(seconds: backoff.next()) { return }
        }
    }

    /// Whether the tty at `node` is the USB receiver with `identity` (sysfs says so).
    private func holds(_ identity: USBSerialIdentity, node: String) -> Bool {
        let name = URL(fileURLWithPath: SerialPort.resolved(node) ?? node).lastPathComponent
        return USBSerialIdentity.of(ttyName: name, sysfs: sysfsFolder) == identity
    }

    /// Where the receiver with `identity` is now, when it is no longer at `node`: a tty in the
    /// folder of /dev the user named (the first by name).
    private func relocated(_ identity: USBSerialIdentity, from node: String) -> String? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return identity.ttyNames(sysfs: sysfsFolder).map { "\(folder)/\($0)" }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Reads until the device fails (returns why) or a stop is asked for (returns nil).
    private func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ framer: inout NMEALineFramer,
                      _ decoder: inout NMEADecoder, _ badSoFar: inout Int,
                      _ emit: (LocationEvent) -> Void, _ stop: StopFlag) -> String? {
        while !stop.isSet {
            // Asleep until the receiver sends bytes or the consumer stops (no timeout to look at
            // a flag: each wake-up costs a handheld's battery).
            if stop.wait(readable: fd, seconds: nil) == .stopped { return nil }
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return String(cString: strerror(errno))
            }
            // Readable with nothing to read: the other end hung up (raw mode reads block for a byte).
            if count == 0 { return "hung up" }
            framer.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { line in
                feed(line, &decoder, emit)
            }
            let bad = decoder.statistics.linesBad
            if bad > badSoFar {
                emit(.badLines(bad - badSoFar))
                badSoFar = bad
            }
        }
        return nil
    }

    private func feed(_ line: NMEALineFramer.Line, _ decoder: inout NMEADecoder, _ emit: (LocationEvent) -> Void) {
        let output = decoder.feed(line: Substring(String(decoding: line.bytes, as: UTF8.self)))
        for fix in output.fixes { emit(.fix(fix)) }
    }
}

/// Why a serial device could not be used.
public struct SerialPortError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// Opening a serial device in raw mode at a baud rate (termios).
public enum SerialPort {
    /// The termios speed constant for `baud`, for the rates receivers use.
    public static func speed(baud: Int) -> speed_t? {
        switch baud {
        case 1200: return speed_t(B1200)
        case 2400: return speed_t(B2400)
        case 4800: return speed_t(B4800)
        case 9600: return speed_t(B9600)
        case 19200: return speed_t(B19200)
        case 38400: return speed_t(B38400)
        case 57600: return speed_t(B57600)
        case 115_200: return speed_t(B115200)
        case 230_400: return speed_t(B230400)
        case 460_800: return speed_t(B460800)
        case 921_600: return speed_t(B921600)
        default: return nil
        }
    }

    /// The device node `path` leads to (symbolic links resolved); nil when it does not exist.
    public static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The stable name of the device at `path`: `path` itself when it already is one (it is in
    /// `folder`), else the link in `folder` that leads to the same node (the first by name);
    /// nil when there is none (no udev, not a USB device, or the device is not there).
    public static func stableName(of path: String, in folder: String) -> String? {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        if path.hasPrefix(prefix) { return path }
        guard let node = resolved(path),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return names.sorted().map { prefix + $0 }.first { resolved($0) == node }
    }

    /// Opens `path` for reading, raw (no echo, no line editing, 8N1) at `baud`; returns the descriptor.
    public static func open(path: String, baud: Int) throws(SerialPortError) -> Int32 {
        guard let speed = speed(baud: baud) else {
            throw SerialPortError(description: "serial device \(path): unsupported baud rate \(baud)")
        }
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw SerialPortError(description: "cannot open serial device \(path): \(String(cString: strerror(errno)))")
        }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw SerialPortError(description: "serial device \(path) is not a terminal: \(reason)")
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        _ = cfsetispeed(&settings, speed)
        _ = cfsetospeed(&settings, speed)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw SerialPortError(description: "cannot set serial device \(path) to \(baud) baud: \(reason)")
        }
        _ = tcflush(fd, TCIFLUSH)
        return fd
    }
}
