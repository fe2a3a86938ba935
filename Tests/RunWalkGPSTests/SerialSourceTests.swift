import Foundation
import Testing
import RunWalkCore
import RunWalkGPS
import RunWalkTestSupport

/// A pseudo-terminal pair: the test writes into the master as a receiver would; the source reads the device.
final class PseudoTerminal: @unchecked Sendable {
    let master: Int32
    let devicePath: String
    private var closed = false
    /// Why a write failed, if one did.
    var writeError: String?

    init() throws {
        // posix_openpt/unlockpt/ptsname are hidden from Swift's Glibc; their ioctls are not.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: CInt = 0, number: CInt = 0
        let tiocsptlck: UInt = 0x4004_5431, tiocgptn: UInt = 0x8004_5430
        guard master >= 0, ioctl(master, tiocsptlck, &unlock) == 0, ioctl(master, tiocgptn, &number) == 0 else {
            throw SerialPortError(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        devicePath = "/dev/pts/\(number)"
    }

    /// Writes `lines` paced as a UART at `baud` would send them (10 bits a byte).
    func write(lines: [String], baud: Int) {
        for line in lines {
            let bytes = Array((line + "\r\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
                if n <= 0 { writeError = String(cString: strerror(errno)); return }
                offset += n
            }
            Thread.sleep(forTimeInterval: Double(bytes.count * 10) / Double(baud))
        }
    }

    /// The receiver is unplugged.
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(master)
    }

    deinit { close() }
}

@Suite("SerialSource (pseudo-terminal)", .serialized)
struct SerialSourceTests {
    @Test("NMEA written at 115200 baud arrives as the file's fixes; raw mode and the baud rate are set; unplugging is reported")
    func readsAndNoticesUnplug() async throws {
        let track = Repository.sampleTrack("demo-short.nmea")
        let lines = try NMEAEpochs.load(track).flatMap { $0 }
        let expected = try fileFixes(track)
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let collector = SourceCollector()
        let settingsSeen = SettingsProbe()
        let writer = Thread {
            while !collector.hasConnected { Thread.sleep(forTimeInterval: 0.01) }
            settingsSeen.read(terminal.devicePath)
            terminal.write(lines: lines, baud: 115_200)
            // Unplug only once the reader has caught up (closing the master drops what the
            // device has not read yet); on a loaded machine that can take seconds. The last
            // epoch completes only when the stream ends, hence one fewer.
            let deadline = Date().addingTimeInterval(20)
            while collector.fixes.count < expected.count - 1, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            Thread.sleep(forTimeInterval: 0.3)
            terminal.close()
        }
        writer.start()
        var source = SerialSource(path: terminal.devicePath, baud: 115_200)
        source.backoffInitialSeconds = 0.05
        // On the source's own thread: a full test run's busy cooperative pool held the events of
        // the stream path back for 90 s once, so the writer never saw the last fixes in time.
        await collector.runOnSourceThread(source, seconds: 30) { events in
            events.contains { if case .unavailable = $0 { return true } else { return false } }
        }
        let fixes = collector.fixes
        #expect(terminal.writeError == nil)
        #expect(fixes.count == expected.count, "\(collector.events.filter { if case .fix = $0 { false } else { true } })")
        let same = fixes == expected
        #expect(same, "fixes differ from the file's")
        let unavailable = collector.events.compactMap { if case .unavailable(let m) = $0 { return m } else { return nil } }
        #expect(unavailable.first?.hasPrefix("serial device \(terminal.devicePath): ") == true, "\(unavailable)")
        #expect(settingsSeen.speed == speed_t(B115200))
        #expect(settingsSeen.canonical == false && settingsSeen.echo == false, "raw mode")
    }

    @Test("a device that does not exist is reported with its path, and retried")
    func missingDevice() async {
        let collector = SourceCollector()
        var source = SerialSource(path: "/dev/runwalk-no-such-tty", baud: 9600)
        source.backoffInitialSeconds = 0.05
        await collector.run(source, seconds: 0.5) { _ in false }
        let messages = collector.events.compactMap { if case .unavailable(let m) = $0 { return m } else { return nil } }
        #expect(messages == ["cannot open serial device /dev/runwalk-no-such-tty: No such file or directory; retrying"])
    }
}

/// Reads a device's termios settings from another descriptor.
final class SettingsProbe: @unchecked Sendable {
    var speed: speed_t?
    var canonical: Bool?
    var echo: Bool?

    func read(_ path: String) {
        let fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return }
        speed = cfgetispeed(&settings)
        canonical = settings.c_lflag & tcflag_t(ICANON) != 0
        echo = settings.c_lflag & tcflag_t(ECHO) != 0
    }
}
