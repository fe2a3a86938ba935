import Foundation
import RunWalkCore
import RunWalkReport

/// A child started with posix_spawn (standard streams to files) and stopped by its PID.
///
/// Not Foundation's `Process`: pulseaudio closes inherited descriptors, which `Process` takes
/// for an exit; and a child must not share the bench's own pipes (it would wake the bench).
final class BenchChild {
    let pid: pid_t
    let name: String
    private var reaped: Int32?

    init(_ path: String, _ arguments: [String], environment: [String: String] = [:],
         stdout: String = "/dev/null", stderr: String = "/dev/null") throws {
        name = (path as NSString).lastPathComponent
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The bench's own signal mask and ignored signals must not leak into the child.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw BenchError("\(path): cannot start (\(String(cString: strerror(status))))") }
        self.pid = pid
    }

    var isRunning: Bool {
        if reaped != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = status; return false }
        return true
    }

    /// Sends `signal` and waits up to `seconds` for the exit (then SIGKILL); the wait status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM, seconds: Double = 5) -> Int32 {
        if let reaped { return reaped }
        kill(pid, signal)
        let deadline = ProcessSample.monotonicSeconds() + seconds
        while ProcessSample.monotonicSeconds() < deadline {
            if !isRunning { return reaped ?? 0 }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        reaped = status
        return status
    }

    deinit { if reaped == nil { stop(SIGKILL, seconds: 1) } }
}

enum FootprintServices {
    /// A free TCP port on the loopback (bound to 0 and released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits until something accepts TCP connections on `port`; false after `seconds`.
    static func waitForPort(_ port: Int, seconds: Double = 10) -> Bool {
        let deadline = ProcessSample.monotonicSeconds() + seconds
        while ProcessSample.monotonicSeconds() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if connected { return true }
            usleep(50_000)
        }
        return false
    }

    /// An NMEA log of `seconds` of running round a 400 m loop at 3 m/s, `hertz` epochs a second
    /// (RMC + GGA each), starting now: long enough for the run, so gpsd never loops back in time.
    static func track(hertz: Int, seconds: Double) -> String {
        let start = Int64(Date().timeIntervalSince1970) * 1000
        let count = Int(seconds * Double(hertz)) + 1
        let radius = 400 / (2 * Double.pi), speed = 3.0
        let points = (0..<count).map { i -> GPXTrack.Point in
            let t = Double(i) / Double(hertz)
            let angle = speed * t / radius
            let lat = 47.0 + radius * sin(angle) / 111_320
            let lon = 8.5 + radius * (1 - cos(angle)) / (111_320 * cos(47.0 * .pi / 180))
            return GPXTrack.Point(latitude: lat, longitude: lon, elevationMetres: 400, time: UTCTime(milliseconds: start + Int64(i) * 1000 / Int64(hertz)),
                                  speedMetresPerSecond: speed, hdop: 0.9)
        }
        return NMEAWriter.render(GPXTrack(name: "footprint", segments: [points]), source: "runwalk-bench footprint", format: "synthetic").text
    }

    /// A user-space PulseAudio with a null sink in `folder`; nil when pulseaudio is not installed
    /// or does not come up. The server address is `unix:FOLDER/pulse.sock`.
    static func pulseAudio(in folder: String) throws -> BenchChild? {
        let path = "/usr/bin/pulseaudio"
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let socket = folder + "/pulse.sock"
        let child = try BenchChild(path, ["-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm=yes", "--use-pid-file=no",
                                          "-L", "module-null-sink sink_name=footprint_null",
                                          "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(socket)"],
                                   environment: ["HOME": folder, "XDG_RUNTIME_DIR": folder, "XDG_CONFIG_HOME": folder])
        let deadline = ProcessSample.monotonicSeconds() + 5
        while ProcessSample.monotonicSeconds() < deadline {
            if FileManager.default.fileExists(atPath: socket) { return child }
            if !child.isRunning { return nil }
            usleep(50_000)
        }
        child.stop()
        return nil
    }
}
