import Foundation
import RunWalkCore
import RunWalkHost
import RunWalkIO
import RunWalkRuntime
import RunWalkTestSupport
import Testing

/// A real `runwalk run --gps file:` session controlled from outside: `runwalk control` over its
/// socket, and signals.
@Suite("runwalk run controlled from outside (end to end)", .serialized)
struct LiveControlTests {
    @Test("control status --json prints the status; control skip moves on; SIGUSR1 pauses; control stop finalises")
    func controlALiveRun() throws {
        let folder = "/tmp/rwlive-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/control.sock"
        let environment = [ControlSocketPath.overrideVariable: socket]
        let run = try ChildProcess("/usr/bin/env", ["\(ControlSocketPath.overrideVariable)=\(socket)", RunWalkBinary.url.path, "run",
                                                    "2m warmup, 2x(1m run, 1m walk)", "--gps", "file:SampleTracks/track-loop.nmea",
                                                    "--speed", "4", "--start", "now", "--voice", "off", "--json", "--no-record"],
                                   currentDirectory: RunWalkBinary.repositoryRoot)
        defer { run.stop() }

        func status() throws -> SessionStatus? {
            let answer = try RunWalkBinary.run(["control", "status", "--json"], environment: environment)
            guard answer.status == 0 else { return nil }
            return try JSONDecoder().decode(SessionStatus.self, from: Data(answer.stdout.utf8))
        }
        func waitForStatus(_ what: String, _ condition: (SessionStatus) -> Bool) throws -> SessionStatus? {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let current = try status(), condition(current) { return current }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return try status()
        }

        // `--start now` runs the workout before the file's first fix has arrived: on a loaded
        // machine the first status can come before it, so wait for both.
        let first = try #require(try waitForStatus("running with a fix") { $0.stage == .running && $0.gps.state == .fix })
        #expect(first.phase?.kind == .warmup && first.phase?.index == 0)
        #expect(first.phaseCount == 5)
        #expect(first.gps.state == .fix)

        let skipped = try RunWalkBinary.run(["control", "skip"], environment: environment)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        let afterSkip = try waitForStatus("the run") { $0.phase?.index == 1 }
        #expect(afterSkip?.phase?.kind == .run)

        run.send(SIGUSR1)
        let paused = try waitForStatus("paused") { $0.paused }
        #expect(paused?.stage == .paused)

        let stopped = try RunWalkBinary.run(["control", "stop"], environment: environment)
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let status = run.wait(seconds: 30)
        #expect(status == 0, "\(run.stderr)")
        let summary = try SummaryJSON.decode(run.stdout)
        #expect(summary.state == .stopped)
        let kinds = (summary.events ?? []).map(\.kind)
        #expect(kinds.contains(.skip) && kinds.contains(.pause), "\(kinds)")
        #expect(summary.phases.first?.endReason == .skipped)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed at the end")
    }
}
