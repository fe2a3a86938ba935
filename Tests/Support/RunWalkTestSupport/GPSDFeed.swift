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
    private var latest: Double?

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

    /// Sends `epochs` (NMEA sentences, one datagram each), never more than `window` epochs ahead
    /// of the latest time gpsd has reported to its clients (a TPV's `time`, against the epoch's
    /// own NMEA time): every small datagram costs about a kilobyte of the socket's buffer, and a
    /// feed that ran ahead of a starved gpsd lost sentences. When gpsd reports nothing new for
    /// `stallSeconds` (epochs without a fix may make no report) the feed goes on, and waits again
    /// once gpsd reports a new time.
    public func feed(_ epochs: [[String]], window: Int = 5, stallSeconds: Double = 5) {
        let feeder = UDPFeeder(port: udpPort)
        defer { feeder.close() }
        let times = epochs.map(Self.nmeaSecondOfDay)
        var stalledAt: Double?? = nil
        for (index, epoch) in epochs.enumerated() {
            if index >= window, let due = times[index - window] {
                let deadline = Date().addingTimeInterval(stallSeconds)
                while true {
                    let reported = latestReportedSecond()
                    if let reported, reported >= due - 0.001 { break }
                    if let stalledAt, stalledAt == reported { break }
                    if Date() >= deadline { stalledAt = .some(reported); break }
                    Thread.sleep(forTimeInterval: 0.002)
                }
            }
            epoch.forEach(feeder.send)
        }
    }

    /// The time of day (s) of an epoch's first RMC or GGA sentence.
    static func nmeaSecondOfDay(_ epoch: [String]) -> Double? {
        for line in epoch {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > 1, fields[0].hasSuffix("RMC") || fields[0].hasSuffix("GGA") else { continue }
            let time = Array(fields[1].utf8)
            guard time.count >= 6, let h = Double(String(fields[1].prefix(2))),
                  let m = Double(String(fields[1].dropFirst(2).prefix(2))), let sec = Double(String(fields[1].dropFirst(4))) else { continue }
            return h * 3600 + m * 60 + sec
        }
        return nil
    }

    /// The latest time of day (s) in a TPV gpsd has logged as written to a client (scanning only
    /// the new part of its log each time).
    private func latestReportedSecond() -> Double? {
        let log = daemon.stderrData
        guard log.count > scanned else { return latest }
        // Whole lines only: a line still being written is read next time.
        guard let end = log[scanned...].lastIndex(of: UInt8(ascii: "\n")) else { return latest }
        let text = String(decoding: log[scanned...end], as: UTF8.self)
        scanned = end + 1
        for line in text.split(separator: "\n") {
            var rest = line[...]
            while let tpv = rest.range(of: "{\"class\":\"TPV\"") {
                rest = rest[tpv.upperBound...]
                guard let key = rest.range(of: "\"time\":\"") else { break }
                let value = rest[key.upperBound...].prefix(while: { $0 != "\"" })
                // "2026-04-12T06:30:05.000Z": the part after the T.
                if let t = value.firstIndex(of: "T") {
                    let clock = value[value.index(after: t)...].split(separator: ":")
                    if clock.count == 3, let h = Double(clock[0]), let m = Double(clock[1]),
                       let sec = Double(clock[2].trimmingCharacters(in: CharacterSet(charactersIn: "Z"))) {
                        latest = max(latest ?? 0, h * 3600 + m * 60 + sec)
                    }
                }
            }
        }
        return latest
    }

    public func stop() { daemon.stop() }

    deinit { daemon.stop() }
}

struct GPSDFeedError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
