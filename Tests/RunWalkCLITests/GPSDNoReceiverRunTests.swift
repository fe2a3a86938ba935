import Foundation
import RunWalkCore
import RunWalkHost
import RunWalkIO
import RunWalkRuntime
import RunWalkTestSupport
import Testing

/// `runwalk run` against a gpsd that has no receiver: what the runner and `runwalk control` see,
/// before and after a receiver is added through gpsd's control socket (as `gpsdctl add` does).
@Suite("runwalk run with a gpsd that has no receiver (end to end)", .serialized,
       .enabled(if: GPSDHarness.isInstalled, "gpsd/gpsfake not installed (scripts/bootstrap installs gpsd and gpsd-clients)"))
struct GPSDNoReceiverRunTests {
    @Test("control status (JSON and text) and the status line say gpsd has no receiver; a receiver added, fixes come and it is gone")
    func noReceiverThenOne() throws {
        let folder = "/tmp/rwnorx-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = FreePort.loopback(), udp = FreePort.loopback(udp: true)
        let daemon = try GPSDHarness.startDevicelessDaemon(port: port, controlSocket: folder + "/gpsd.sock")
        defer { daemon.stop() }
        let socket = folder + "/control.sock"
        let environment = [ControlSocketPath.overrideVariable: socket]
        let run = try ChildProcess("/usr/bin/env", ["\(ControlSocketPath.overrideVariable)=\(socket)", RunWalkBinary.url.path, "run",
                                                    "2m run", "--gps", "gpsd://127.0.0.1:\(port)", "--voice", "off", "--json", "--no-record"],
                                   currentDirectory: RunWalkBinary.repositoryRoot)
        defer { run.stop() }

        func status() throws -> SessionStatus? {
            let answer = try RunWalkBinary.run(["control", "status", "--json"], environment: environment)
            guard answer.status == 0 else { return nil }
            return try JSONDecoder().decode(SessionStatus.self, from: Data(answer.stdout.utf8))
        }
        func waitForStatus(_ condition: (SessionStatus) -> Bool, while doing: () -> Void = {}) throws -> SessionStatus? {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let current = try status(), condition(current) { return current }
                doing()
                Thread.sleep(forTimeInterval: 0.1)
            }
            return try status()
        }

        let waiting = try #require(try waitForStatus { $0.gps.problem != nil })
        #expect(waiting.gps.problem == "gpsd has no receiver")
        #expect(waiting.stage == .waitingForFix && waiting.gps.state == .noFix)
        let text = try RunWalkBinary.run(["control", "status"], environment: environment)
        #expect(text.stdout.contains("GPS: gpsd has no receiver"), "\(text.stdout)")
        #expect(run.waitForStderr("GPS: gpsd has no receiver", seconds: 10), "the line-mode status line: \(run.stderr)")
        #expect(run.stderr.contains("runwalk: gps: gpsd at 127.0.0.1:\(port) is running but has no receiver: "), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "is running but has no receiver").count - 1 == 1, "said once: \(run.stderr)")

        #expect(try GPSDHarness.control("+udp://127.0.0.1:\(udp)", socket: folder + "/gpsd.sock") == "OK")
        let epochs = try NMEAEpochs.load(Repository.sampleTrack("track-loop.nmea"))
        let feeder = UDPFeeder(port: udp)
        defer { feeder.close() }
        var next = 0
        let fixed = try waitForStatus({ $0.gps.state == .fix }) {
            // A receiver sending one epoch per poll, until the session has a fix.
            epochs[next % epochs.count].forEach(feeder.send)
            next += 1
        }
        #expect(fixed?.gps.state == .fix, "\(String(describing: fixed)); \(run.stderr)")
        #expect(fixed?.gps.problem == nil)
        #expect(run.stderr.contains("receiver udp://127.0.0.1:\(udp) attached"), "\(run.stderr)")

        let stopped = try RunWalkBinary.run(["control", "stop"], environment: environment)
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(run.wait(seconds: 30) == 0, "\(run.stderr)")
    }
}
