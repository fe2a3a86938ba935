import CLibGPS
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore
import RunWalkRuntime

/// Fixes from gpsd through libgps: `gps_open`, `gps_stream` in JSON watch mode, then
/// `gps_read` whenever gpsd's socket is readable, on a thread of its own.
///
/// The thread sleeps in `poll(2)` on the socket and the stop flag's descriptor: it wakes only
/// when gpsd sends something or the consumer stops (no timeout to look at a flag: on a
/// handheld every wake-up costs battery).
///
/// When gpsd is not running, or goes away, it says so once with the address and keeps
/// reconnecting with a growing delay until the consumer stops. When gpsd has no receiver (its
/// DEVICES report is empty) it says so and what to do, and again when one comes or goes.
public struct GPSDSource: LocationSource {
    public var host: String
    public var port: String
    /// Reconnection delays.
    public var backoffInitialSeconds = 0.5
    public var backoffMaximumSeconds = 8.0

    /// gpsd's default address, localhost:2947.
    public static let defaultHost = "localhost"
    public static let defaultPort = DEFAULT_GPSD_PORT

    public init(host: String = GPSDSource.defaultHost, port: String = GPSDSource.defaultPort) {
        self.host = host
        self.port = port
    }

    public var description: String { "gpsd at \(host):\(port)" }

    /// The status's few words while gpsd cannot be reached.
    static let unreachable = "gpsd not reachable"

    public func events() -> AsyncStream<LocationEvent> {
        let source = self
        return threadedStream(name: "runwalk.gpsd") { continuation, stop in
            source.serve({ continuation.yield($0) }, stop)
        }
    }

    /// Feeds `sink` from the reading thread itself (the session loop's merged input).
    public func start(sink: @escaping @Sendable (LocationEvent?) -> Void) -> (@Sendable () -> Void)? {
        let stop = StopFlag()
        let source = self
        NamedThread.start(name: "runwalk.gpsd") {
            source.serve({ sink($0) }, stop)
            sink(nil)
        }
        return { stop.set() }
    }

    private func serve(_ emit: (LocationEvent) -> Void, _ stop: StopFlag) {
        // gps_data_t is about 24 KB: one heap allocation, reused across reconnections.
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        let bufferSize = 8192
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bufferSize)
        defer { buffer.deallocate() }
        var backoff = Backoff(initialSeconds: backoffInitialSeconds, maximumSeconds: backoffMaximumSeconds)
        var failures = FailureReporter()
        var mapper = GPSDReportMapper()
        var wasConnected = false
        while !stop.isSet {
            memset(data, 0, MemoryLayout<gps_data_t>.size)
            if gps_open(host, port, data) != 0 {
                let reason = String(cString: gps_errstr(errno))
                let verb = wasConnected ? "lost gpsd" : "cannot connect to gpsd"
                failures.report("\(verb) at \(host):\(port): \(reason); retrying", problem: Self.unreachable, to: emit)
                if !stop.sleep(seconds: backoff.next()) { return }
                continue
            }
            _ = gps_stream(data, runwalk_gps_watch_json(), nil)
            if failures.hasReported { emit(.problem(nil)) }
            emit(.connected("connected to gpsd at \(host):\(port)"))
            var devices = GPSDDevices(address: "\(host):\(port)")
            failures.reset()
            backoff.reset()
            wasConnected = true
            var lostReason = "gpsd closed the connection"
            while !stop.isSet {
                // libgps may hold whole messages it has read already: a zero wait looks at its
                // buffer (and the socket) without blocking; only then is poll(2) asked to sleep.
                errno = 0
                if !gps_waiting(data, 0) {
                    if errno != 0 && errno != EINTR && errno != EAGAIN && errno != ETIMEDOUT {
                        // gps_waiting reports errors the same way as a timeout; errno tells them apart.
                        let code = errno
                        errno = 0
                        if code == ECONNRESET || code == EPIPE || code == EBADF {
                            lostReason = String(cString: strerror(code))
                            break
                        }
                    }
                    // A closed connection polls readable too: gps_read then says so.
                    if stop.wait(readable: data.pointee.gps_fd, seconds: nil) == .stopped { break }
                    continue
                }
                // `set` is not cleared by libgps on every message.
                data.pointee.set = 0
                buffer[0] = 0
                let count = gps_read(data, buffer, Int32(bufferSize))
                if count < 0 { break }
                if count == 0 { continue }
                if let fix = mapper.report(data.pointee, message: buffer) {
                    emit(.fix(fix))
                } else {
                    for event in devices.events(for: String(cString: buffer)) { emit(event) }
                }
            }
            gps_close(data)
            if stop.isSet { return }
            failures.report("lost gpsd at \(host):\(port): \(lostReason); reconnecting", problem: Self.unreachable, to: emit)
            if !stop.sleep(seconds: backoff.next()) { return }
        }
    }
}

/// Turns libgps reports into fixes: one per TPV with a time, using the DOPs and satellite
/// counts of the latest SKY.
struct GPSDReportMapper {
    private var lastTime: UTCTime?

    /// The fix for this report, when it is a TPV for a new epoch.
    mutating func report(_ data: gps_data_t, message: UnsafePointer<CChar>) -> Fix? {
        guard Self.messageClass(message) == "TPV" else { return nil }
        // The first TPV of an epoch may carry no time.
        guard data.set & UInt64(TIME_SET) != 0, data.fix.time.tv_sec > 0 else { return nil }
        let time = UTCTime(milliseconds: Int64(data.fix.time.tv_sec) * 1000 + Int64(data.fix.time.tv_nsec) / 1_000_000)
        if let lastTime, time <= lastTime { return nil }
        lastTime = time
        return Self.fix(from: data, time: time)
    }

    /// The fix fields of a TPV (NaN and unset values become nil).
    static func fix(from data: gps_data_t, time: UTCTime) -> Fix {
        func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
        var fix = Fix(time: time)
        let g = data.fix
        fix.mode = FixMode(rawValue: Int(g.mode)) ?? (g.mode == 0 ? nil : .noFix)
        if g.mode >= 2, let lat = finite(g.latitude), let lon = finite(g.longitude) {
            fix.latitude = lat
            fix.longitude = lon
        }
        if g.mode >= 3 { fix.altitudeMSL = finite(g.altMSL) }
        fix.speedMetresPerSecond = finite(g.speed)
        fix.courseDegrees = finite(g.track)
        fix.horizontalErrorMetres = finite(g.eph)
        fix.verticalErrorMetres = finite(g.epv)
        fix.hdop = finite(data.dop.hdop).flatMap { $0 > 0 ? $0 : nil }
        fix.vdop = finite(data.dop.vdop).flatMap { $0 > 0 ? $0 : nil }
        fix.pdop = finite(data.dop.pdop).flatMap { $0 > 0 ? $0 : nil }
        if data.satellites_used > 0 { fix.satellitesUsed = Int(data.satellites_used) }
        fix.latitudeErrorMetres = finite(data.gst.lat_err_deviation)
        fix.longitudeErrorMetres = finite(data.gst.lon_err_deviation)
        fix.altitudeErrorMetres = finite(data.gst.alt_err_deviation)
        return fix
    }

    /// The `class` of a gpsd JSON message (`TPV`, `SKY`, …), read from its start.
    static func messageClass(_ message: UnsafePointer<CChar>) -> Substring? {
        let text = String(cString: message)
        guard let range = text.firstRange(of: "\"class\":\"") else { return nil }
        let rest = text[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return rest[..<end]
    }
}
