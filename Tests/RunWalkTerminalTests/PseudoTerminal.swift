#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A pseudo-terminal opened by a test: the front end draws into `slave`; the test reads what it
/// drew from `master` and types keys into it.
final class PseudoTerminal {
    private(set) var master: Int32
    let slave: Int32
    /// Everything read from the master so far.
    private(set) var output: [UInt8] = []

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(columns: Int, rows: Int) throws {
        // posix_openpt/unlockpt/ptsname are hidden from Swift's Glibc; their ioctls are not
        // (TIOCSPTLCK, TIOCGPTN: the same numbers on x86-64 and arm64).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: CInt = 0, number: CInt = 0
        guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlock) == 0, ioctl(master, UInt(0x8004_5430), &number) == 0 else {
            throw Failure(description: "no pseudo-terminal: errno \(errno)")
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw Failure(description: "cannot open /dev/pts/\(number): errno \(errno)") }
        _ = fcntl(master, F_SETFL, O_NONBLOCK)
        resize(columns: columns, rows: rows)
    }

    deinit {
        close(slave)
        if master >= 0 { close(master) }
    }

    /// Closes the master side, as a terminal window closing does: the slave then fails with EIO.
    func hangUp() {
        close(master)
        master = -1
    }

    /// Sets the size the slave reports (TIOCSWINSZ).
    func resize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Types `text` as keys.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// The output so far as text (invalid UTF-8 repaired).
    var text: String { String(decoding: output, as: UTF8.self) }

    /// Reads until `condition` holds on the text read since `from` (a byte offset), or `timeout`
    /// passes; returns whether it held.
    @discardableResult
    func waitFor(after from: Int = 0, timeout: Duration = .seconds(10), _ condition: (String) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            drain()
            if condition(String(decoding: output[min(from, output.count)...], as: UTF8.self)) { return true }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var pending = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            _ = poll(&pending, 1, Int32(min(left / .milliseconds(1), 200)) + 1)
        }
    }

    /// Reads whatever is waiting.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { return }
            output += buffer.prefix(count)
        }
    }

    /// The slave's input-mode flags (XON/XOFF among them).
    var inputFlags: tcflag_t {
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        return settings.c_iflag
    }

    /// The slave's local-mode flags (echo, canonical).
    var localFlags: tcflag_t {
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        return settings.c_lflag
    }
}

/// Collects the commands a `SessionControl` receives, for tests that wait on them.
final class CommandCollector: Sendable {
    private final class Store: Sendable { let seen = Mutex<[String]>([]) }
    private let store = Store()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<some Sendable & RawRepresentable<String>>) {
        let store = self.store
        task = Task { for await command in stream { store.seen.withLock { $0.append(command.rawValue) } } }
    }

    deinit { task.cancel() }

    var commands: [String] { store.seen.withLock { $0 } }

    /// Waits (up to `timeout`) until `count` commands arrived; returns them.
    func wait(for count: Int, timeout: Duration = .seconds(10)) async -> [String] {
        let deadline = ContinuousClock.now + timeout
        while commands.count < count && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return commands
    }
}
