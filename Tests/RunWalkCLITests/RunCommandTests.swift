import Foundation
import Testing
import RunWalkCore
import RunWalkIO
import RunWalkTestSupport

/// `runwalk run` as a user runs it, against a real gpsd where one is needed.
@Suite("runwalk run (end to end)", .serialized)
struct RunCommandTests {
    static let demoWorkout = "1m warmup, 2x(30s run, 30s walk), 1m cooldown"
    static let loopWorkout = "5m warmup, 8x(90s run, 60s walk), 5m cooldown"

    /// `runwalk run ARGUMENTS`, with `--start now` unless the test says otherwise (these tests
    /// compare with replay, which starts at once).
    static func start(_ arguments: [String]) throws -> ChildProcess {
        let start = arguments.contains("--start") ? [] : ["--start", "now"]
        return try ChildProcess(RunWalkBinary.url.path, ["run"] + arguments + start, currentDirectory: Repository.root)
    }

    static func replay(_ track: String, workout: String) throws -> Summary {
        let output = try RunWalkBinary.run(["replay", track, "--workout", workout, "--json"])
        try #require(output.status == 0, "replay failed: \(output.stderr)")
        return try SummaryJSON.decode(output.stdout)
    }

    static func finish(_ run: ChildProcess, seconds: Double) throws -> Summary {
        let status = run.wait(seconds: seconds)
        try #require(status == 0, "runwalk run exited \(String(describing: status)): \(run.stderr)")
        return try SummaryJSON.decode(run.stdout)
    }

    @Test("file: without --speed gives replay's summary (same pipeline, the track's clock)")
    func fileEqualsReplay() throws {
        let track = "SampleTracks/demo-short.nmea"
        // Voice off, as replay's default: a voice measures its cues with espeak-ng, which moves them.
        let run = try Self.start([Self.demoWorkout, "--gps", "file:\(track)", "--json", "--voice", "off"])
        defer { run.stop() }
        var live = try Self.finish(run, seconds: 60)
        let replay = try Self.replay(track, workout: Self.demoWorkout)
        #expect(live.gpsGaps == nil)
        live.gpsGaps = nil
        // The same figures; the start is when the run ran (issue 31), the replay's the track's own.
        let ranAt = try #require(live.startUTC.flatMap(ISO8601Time.parseZoned))
        #expect(abs(Double(ranAt.milliseconds) / 1000 - Date().timeIntervalSince1970) < 300, "\(live.startUTC ?? "")")
        live.startUTC = replay.startUTC
        #expect(live == replay)
    }

    @Test("a bad --gps value exits 2 and says what is expected")
    func badSource() throws {
        let output = try RunWalkBinary.run(["run", "5m run", "--gps", "bluetooth:gps"])
        #expect(output.status == 2)
        #expect(output.stderr == "runwalk: error: --gps bluetooth:gps: unknown source; expected gpsd[://HOST:PORT], serial:DEVICE[@BAUD] or file:TRACK\n")
    }

    @Test("SIGTERM stops the workout and still prints the finalised summary")
    func stopsOnSignal() throws {
        let run = try Self.start(["10m run", "--gps", "file:SampleTracks/demo-short.nmea", "--speed", "20", "--json"])
        defer { run.stop() }
        #expect(run.waitForStderr("reading SampleTracks/demo-short.nmea", seconds: 30))
        Thread.sleep(forTimeInterval: 1.5)
        run.send(SIGTERM)
        let summary = try Self.finish(run, seconds: 40)
        #expect(summary.state == .stopped)
        #expect(summary.phases.count == 1 && summary.phases[0].endReason == .stopped)
        #expect(summary.durationSeconds > 15 && summary.durationSeconds < 120, "\(summary.durationSeconds)")
        #expect(summary.distanceMetres > 10)
        #expect(run.stderr.contains("runwalk: terminated; stopping the workout"))
    }
}

@Suite("runwalk run with a real gpsd", .serialized,
       .enabled(if: GPSDHarness.isInstalled, "gpsd/gpsfake not installed (scripts/test installs gpsd and gpsd-clients)"))
struct RunCommandGPSDTests {
    @Test("gpsd not running at the start: said with the address, and the workout runs on by time")
    func gpsdNotRunning() throws {
        let port = FreePort.loopback()
        let run = try RunCommandTests.start(["20s run", "--gps", "gpsd://127.0.0.1:\(port)", "--speed", "10", "--json"])
        defer { run.stop() }
        let summary = try RunCommandTests.finish(run, seconds: 60)
        #expect(run.stderr.contains("runwalk: gps: cannot connect to gpsd at 127.0.0.1:\(port): "), "\(run.stderr)")
        #expect(summary.state == .completed)
        #expect(summary.gpsGaps == [GPSGap(startSeconds: 0, endSeconds: nil, reason: .noFixYet)])
        #expect(summary.cues.map(\.text).contains("Waiting for GPS."))
        #expect(summary.distanceMetres == 0)
    }

    @Test("the same track through gpsd and through replay: same distance within 0.5 %, same phases")
    func gpsdMatchesReplay() throws {
        let track = "SampleTracks/track-loop.nmea"
        // gpsd fed by UDP, not gpsfake: gpsfake's feed starts on its own clock, and a client that
        // connected late on a loaded machine missed the first fixes (the run then waited for a fix
        // until the test's deadline, issue 28). Here nothing is sent before gpsd has answered
        // runwalk's watch, and the feed keeps pace with what gpsd has passed on, so the whole track
        // arrives however loaded the machine; `--clock track` makes its pace irrelevant.
        let gpsd = try LoggedGPSD()
        defer { gpsd.stop() }
        let run = try RunCommandTests.start([RunCommandTests.loopWorkout, "--gps", "gpsd://127.0.0.1:\(gpsd.port)", "--clock", "track", "--json"])
        defer { run.stop() }
        try #require(gpsd.waitForWatcher(seconds: 60), "runwalk never watched gpsd: \(run.stderr)")
        gpsd.feed(try NMEAEpochs.load(Repository.sampleTrack("track-loop.nmea")))
        let live = try RunCommandTests.finish(run, seconds: 120)
        let replay = try RunCommandTests.replay(track, workout: RunCommandTests.loopWorkout)
        #expect(live.state == .completed)
        #expect(abs(live.distanceMetres - replay.distanceMetres) <= 0.005 * replay.distanceMetres,
                "gpsd \(live.distanceMetres) m, replay \(replay.distanceMetres) m")
        #expect(live.phases.map(\.kind) == replay.phases.map(\.kind))
        #expect(live.phases.map(\.durationSeconds) == replay.phases.map(\.durationSeconds))
        #expect(live.phases.map(\.endReason) == replay.phases.map(\.endReason))
        for (a, b) in zip(live.phases, replay.phases) {
            #expect(abs(a.distanceMetres - b.distanceMetres) <= max(2, 0.02 * b.distanceMetres), "phase \(a.index)")
        }
    }

    @Test("gpsd killed mid-run and started again: the run completes, the gap is recorded, distance after it is right")
    func gpsdKilledMidRun() throws {
        let track = "SampleTracks/demo-short.nmea"
        let epochs = try NMEAEpochs.load(Repository.sampleTrack("demo-short.nmea"))
        let port = FreePort.loopback(), udp = FreePort.loopback(udp: true)
        var daemon = try GPSDHarness.startUDPDaemon(port: port, udpPort: udp)
        defer { daemon.stop() }
        let speed = 20.0
        let run = try RunCommandTests.start([RunCommandTests.demoWorkout, "--gps", "gpsd://127.0.0.1:\(port)",
                                             "--speed", String(speed), "--start", "fix", "--countdown", "0", "--json"])
        defer { run.stop() }
        try #require(run.waitForStderr("connected to gpsd at 127.0.0.1:\(port)", seconds: 30), "\(run.stderr)")
        Thread.sleep(forTimeInterval: 0.3)
        // The receiver sends at 20x real time; gpsd dies at track second 100 and is back at 115.
        let feeder = UDPFeeder(port: udp)
        defer { feeder.close() }
        let origin = Date()
        for (second, epoch) in epochs.enumerated() {
            let due = origin.addingTimeInterval(Double(second) / speed)
            let delay = due.timeIntervalSinceNow
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            if second == 100 {
                daemon.send(SIGKILL)
                _ = daemon.wait(seconds: 5)
            }
            if second == 115 {
                daemon = try GPSDHarness.startUDPDaemon(port: port, udpPort: udp)
            }
            epoch.forEach(feeder.send)
            if !run.isRunning { break }
        }
        let live = try RunCommandTests.finish(run, seconds: 60)
        let replay = try RunCommandTests.replay(track, workout: RunCommandTests.demoWorkout)

        #expect(live.state == .completed)
        #expect(live.phases.map(\.endReason) == Array(repeating: .completed, count: 6))
        #expect(run.stderr.contains("runwalk: gps: lost gpsd at 127.0.0.1:\(port)"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "connected to gpsd at").count - 1 == 2, "connected, then reconnected")
        let gaps = try #require(live.gpsGaps)
        // A loaded machine may stall the feed for a moment (at 20x); the outage is the one long gap.
        let long = gaps.filter { ($0.endSeconds ?? .infinity) - $0.startSeconds > 5 }
        try #require(long.count == 1, "\(gaps)")
        let gap = long[0]
        #expect(gap.reason == .signalLost)
        #expect(gap.startSeconds > 95 && gap.startSeconds < 106, "gap from \(gap.startSeconds)")
        let end = try #require(gap.endSeconds)
        #expect(end > 114 && end < 150, "gap to \(end)")
        let texts = live.cues.map(\.text)
        #expect(texts.filter { $0 == "GPS signal lost." }.count == gaps.count, "announced once per gap")
        #expect(texts.filter { $0 == "GPS back." }.count == gaps.count)
        // After the gap: the phases that began after it match replay's, and the total is close.
        // Live, a fix is counted when it arrives: the one taken on a phase boundary may arrive
        // just after it and count in the next phase (one step, 3.1 m at this track's running
        // pace), where replay counts it by its own time.
        let oneFix = 3.5
        for (a, b) in zip(live.phases, replay.phases) where a.startSeconds >= end {
            #expect(abs(a.distanceMetres - b.distanceMetres) <= 0.06 * b.distanceMetres + oneFix,
                    "phase \(a.index): \(a.distanceMetres) m live, \(b.distanceMetres) m replay")
        }
        #expect(abs(live.distanceMetres - replay.distanceMetres) <= 0.03 * replay.distanceMetres,
                "total \(live.distanceMetres) m live, \(replay.distanceMetres) m replay")
    }
}
