import Foundation

/// A gpsd fed by UDP whose client traffic is logged (`-D 2`), so a test knows, instead of guessing
/// with a sleep, when a client's watch is in force and how far gpsd has got with the datagrams.
/// With it a track goes through gpsd whole, however loaded the machine: nothing is sent before
/// the client watches (a late client missed the start with gpsfake, issue 28), and never more
/// than a window of epochs ahead of what gpsd has passed on (a full UDP socket drops datagrams).
public final class LoggedGPSD: @unchecked Sendable {
    public let daemon: ChildProcess
    public let port: UInt16
    public let udpPort: UInt16
    private var scanned = 0
    private var reports = 0

    /// Starts `gpsd -N -n -b -D 2 -S PORT udp://127.0.0.1:UDPPORT` and waits until it listens.
    public init(seconds: Double = 20) throws {
        port = FreePort.loopback()
        udpPort = FreePort.loopback(udp: true)
        daemon = try ChildProcess(GPSDHarness.gpsdPath, ["-N", "-n", "-b", "-D", "2", "-S", String(port), "udp://127.0.0.1:\(udpPort)"])
        let deadline = Date().addingTimeInterval(seconds)
        while !FreePort.isListening(port) {
            guard daemon.isRunning, Date() < deadline else {
                daemon.stop()
                throw GPSDFeedError("gpsd did not listen on port \(port) within \(seconds) s: \(daemon.stderr)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Waits until gpsd has answered a client's `?WATCH` (from then on it passes every datagram on
    /// to that client); false at the deadline.
    public func waitForWatcher(seconds: Double) -> Bool {
        daemon.waitForStderr("{\"class\":\"WATCH\",\"enable\":true", seconds: seconds)
    }

    /// Sends `epochs` (NMEA sentences, one datagram each), at most `window` epochs ahead of the
    /// position reports gpsd has written to its clients; waits up to `stallSeconds` for gpsd to
    /// catch up before sending on regardless (an epoch without a fix makes no report).
    public func feed(_ epochs: [[String]], window: Int = 40, stallSeconds: Double = 5) {
        let feeder = UDPFeeder(port: udpPort)
        defer { feeder.close() }
        for (index, epoch) in epochs.enumerated() {
            let deadline = Date().addingTimeInterval(stallSeconds)
            while index - countReports() > window && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            epoch.forEach(feeder.send)
        }
    }

    /// The TPV reports gpsd has logged as written to a client so far (counting only the new part
    /// of its log each time).
    private func countReports() -> Int {
        let log = daemon.stderrData
        guard log.count > scanned else { return reports }
        let marker = Array("{\"class\":\"TPV\"".utf8)
        // From a marker's length less one back: a marker split across two reads ends in the new
        // part, and one that ends before it was counted last time.
        let from = max(0, scanned - marker.count + 1)
        let bytes = [UInt8](log[from...])
        var index = 0
        while index + marker.count <= bytes.count {
            if bytes[index] == marker[0] && bytes[index..<index + marker.count].elementsEqual(marker) {
                reports += 1
                index += marker.count
            } else {
                index += 1
            }
        }
        scanned = log.count
        return reports
    }

    public func stop() { daemon.stop() }

    deinit { daemon.stop() }
}

struct GPSDFeedError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
