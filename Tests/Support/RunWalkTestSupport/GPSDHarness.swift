import Foundation

/// A real gpsd for tests: either fed by UDP datagrams (deterministic, fast) or by gpsfake.
public enum GPSDHarness {
    public static let gpsdPath = "/usr/sbin/gpsd"
    public static let gpsfakePath = "/usr/bin/gpsfake"

    /// gpsd and gpsfake are installed (scripts/test installs them; tests skip without).
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: gpsdPath) && FileManager.default.isExecutableFile(atPath: gpsfakePath)
    }

    /// Starts `gpsd -N -n -b -S PORT udp://127.0.0.1:UDPPORT` and waits until it listens.
    public static func startUDPDaemon(port: UInt16, udpPort: UInt16) throws -> ChildProcess {
        let daemon = try ChildProcess(gpsdPath, ["-N", "-n", "-b", "-S", String(port), "udp://127.0.0.1:\(udpPort)"])
        try waitListening(port, process: daemon)
        return daemon
    }

    /// Starts `gpsd -N -n -b -S PORT -F SOCKET` with no receiver at all (as a freshly installed
    /// gpsd with nothing plugged in), and waits until it listens; receivers are added later
    /// through its control socket (`GPSDHarness.control`).
    public static func startDevicelessDaemon(port: UInt16, controlSocket: String) throws -> ChildProcess {
        let daemon = try ChildProcess(gpsdPath, ["-N", "-n", "-b", "-S", String(port), "-F", controlSocket])
        try waitListening(port, process: daemon)
        return daemon
    }

    /// Sends one command to gpsd's control socket, as `gpsdctl` does: `+PATH` adds a receiver,
    /// `-PATH` removes it. Returns gpsd's answer (`OK` or `ERROR`).
    public static func control(_ command: String, socket path: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw NotListening(description: "socket: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw NotListening(description: "path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw NotListening(description: "gpsd's control socket \(path): \(String(cString: strerror(errno)))") }
        // gpsd answers at once; a daemon that hangs must not hang the test (the read then gives up).
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let line = Array((command + "\n").utf8)
        guard Glibc.write(fd, line, line.count) == line.count else { throw NotListening(description: "write to \(path) failed") }
        var answer = [UInt8](repeating: 0, count: 64)
        let n = Glibc.read(fd, &answer, answer.count)
        return n > 0 ? String(decoding: answer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
    }

    /// A copy of `track` behind a preamble of fix-free `$GPTXT` lines lasting `seconds` at
    /// `cycleSeconds` a line. gpsfake (-n) feeds gpsd from its start, so the preamble lets a client
    /// connect, even on a loaded machine, before the first fix goes by. The caller removes the file.
    public static func paddedTrack(_ track: String, seconds: Double, cycleSeconds: Double) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-gpsfake-\(UUID().uuidString).nmea")
        let lines = Int((seconds / cycleSeconds).rounded(.up))
        let preamble = String(repeating: "$GPTXT,01,01,02,waiting for the client*1D\r\n", count: lines)
        try Data((preamble + String(contentsOfFile: track, encoding: .utf8)).utf8).write(to: url)
        return url
    }

    /// Starts `gpsfake -1 -c CYCLE -W 1 -P PORT TRACK` and waits until its gpsd listens. Without
    /// `-n`, gpsd opens the fake receiver only when a client watches, and gpsfake stalls on the
    /// full pty until then: a client that connects late misses a bounded stretch, not the track.
    public static func startGPSFake(port: UInt16, track: String, cycleSeconds: Double) throws -> GPSFake {
        let fake = try ChildProcess(gpsfakePath, ["-1", "-c", String(cycleSeconds), "-W", "1", "-P", String(port), track])
        try waitListening(port, process: fake)
        return GPSFake(fake: fake, daemonPID: childPIDs(of: fake.pid, named: "gpsd").first)
    }

    /// The PIDs of `parent`'s children whose command name is `name` (from /proc).
    static func childPIDs(of parent: Int32, named name: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            let comm = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard comm == name, fields.count > 1, Int32(fields[1]) == parent else { return nil }
            return pid
        }
    }

    struct NotListening: Error, CustomStringConvertible {
        var description: String
    }

    private static func waitListening(_ port: UInt16, process: ChildProcess) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if FreePort.isListening(port) { return }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.stop()
        throw NotListening(description: "gpsd did not listen on port \(port): \(process.stderr)")
    }
}

/// gpsfake and the gpsd it started. gpsfake stopped before its log ends leaves its gpsd
/// running, so `stop()` ends that daemon too, by its PID, and removes gpsfake's socket.
public final class GPSFake: @unchecked Sendable {
    public let fake: ChildProcess
    public let daemonPID: Int32?

    init(fake: ChildProcess, daemonPID: Int32?) {
        self.fake = fake
        self.daemonPID = daemonPID
    }

    public func stop() {
        let fakePID = fake.pid
        fake.stop()
        if let daemonPID, Self.isAlive(daemonPID) {
            kill(daemonPID, SIGTERM)
            let deadline = Date().addingTimeInterval(2)
            while Self.isAlive(daemonPID) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if Self.isAlive(daemonPID) { kill(daemonPID, SIGKILL) }
        }
        try? FileManager.default.removeItem(atPath: "/tmp/gpsfake-\(fakePID).sock")
    }

    /// Whether `pid` exists and has not exited (a zombie waiting for its parent counts as gone).
    public static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].dropFirst().first
        return state != "Z" && state != "X"
    }

    deinit { stop() }
}

/// Sends NMEA lines to gpsd's UDP source, one datagram per sentence, epoch by epoch.
public struct UDPFeeder: Sendable {
    public let port: UInt16
    private let fd: Int32

    public init(port: UInt16) {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    }

    /// Sends one sentence (CR LF added); errors (nobody listening) are ignored, as a radio would.
    public func send(_ line: String) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bytes = Array((line + "\r\n").utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    public func close() { _ = Glibc.close(fd) }
}

struct EmptyTrack: Error { var path: String }

/// An NMEA file split into epochs: the sentences that share a time field.
public enum NMEAEpochs {
    public static func load(_ path: String) throws -> [[String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var epochs: [[String]] = []
        var currentTime: Substring?
        for raw in text.split(whereSeparator: \.isNewline) {
            guard raw.hasPrefix("$") else { continue }
            let fields = raw.split(separator: ",", omittingEmptySubsequences: false)
            let type = fields.first?.suffix(3) ?? ""
            let time: Substring? = (type == "RMC" || type == "GGA") && fields.count > 1 ? fields[1] : nil
            if let time, time != currentTime || epochs.isEmpty {
                currentTime = time
                epochs.append([])
            } else if epochs.isEmpty {
                epochs.append([])
            }
            epochs[epochs.count - 1].append(String(raw))
        }
        guard !epochs.isEmpty else { throw EmptyTrack(path: path) }
        return epochs
    }
}

/// Where the repository is, from this file's path.
public enum Repository {
    public static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    public static func sampleTrack(_ name: String) -> String {
        root.appendingPathComponent("SampleTracks").appendingPathComponent(name).path
    }
}
