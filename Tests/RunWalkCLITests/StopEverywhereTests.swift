import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkRuntime
import RunWalkTestSupport
import Testing

/// Issue 30, item 1: nothing hangs. SIGINT, SIGTERM and `runwalk control stop` end `run` and
/// `replay` within 2 s in every state, the session finalised; a second signal ends the process
/// at once; a paced replay ends with its workout. Real processes, each with folders of its own.
@Suite("runwalk run and replay: every stop ends the command (end to end)")
struct StopEverywhereTests {
    enum State: String, CaseIterable, Sendable {
        case waitingForFix = "waiting for a fix"
        case countdown = "the start countdown"
        case paused
        case pacedRun = "a paced run --gps file:"
        case pacedReplay = "a paced replay"
        case summaryWritten = "while the summary is written"
    }

    enum Way: String, CaseIterable, Sendable {
        case sigint = "SIGINT"
        case sigterm = "SIGTERM"
        case controlStop = "runwalk control stop"
    }

    /// Every state with every way to stop it (`replay` has no control socket: signals only).
    static let cases: [(State, Way)] = State.allCases.flatMap { state in
        Way.allCases.filter { state != .pacedReplay || $0 != .controlStop }.map { (state, $0) }
    }

    static let loop = "SampleTracks/track-loop.nmea"

    /// Starts runwalk in `state`; returns once it is there.
    static func start(_ run: PrivateRunwalk, in state: State, stdout: FullPipe) throws {
        let live = ["--voice", "off", "--json"]
        switch state {
        case .waitingForFix:
            // Nothing listens on the port: gpsd is unavailable and the run waits for a fix.
            try run.start(["run", "10m run", "--gps", "gpsd://127.0.0.1:\(FreePort.loopback())"] + live)
            #expect(run.waitForStatus { $0.stage == .waitingForFix } != nil, "\(run.stderr)")
        case .countdown:
            try run.start(["run", "10m run", "--gps", "file:\(loop)", "--speed", "1", "--start", "fix", "--countdown", "30"] + live)
            #expect(run.waitForStatus { $0.stage == .startCountdown } != nil, "\(run.stderr)")
        case .paused:
            try run.start(["run", "10m run", "--gps", "file:\(loop)", "--speed", "1", "--start", "now"] + live)
            #expect(run.waitForStatus { $0.stage == .running } != nil, "\(run.stderr)")
            #expect(try run.runwalk(["control", "pause"]).status == 0)
            #expect(run.waitForStatus { $0.stage == .paused } != nil, "\(run.stderr)")
        case .pacedRun:
            try run.start(["run", "10m run", "--gps", "file:\(loop)", "--speed", "10", "--start", "now"] + live)
            #expect(run.waitForStatus { $0.stage == .running && $0.workoutElapsedSeconds > 1 } != nil, "\(run.stderr)")
        case .pacedReplay:
            try run.start(["replay", loop, "--workout", "10m run", "--speed", "10", "--voice", "text", "--json"])
            // The first cue says the workout runs.
            #expect(run.waitForStderr("10 minutes"), "\(run.stderr)")
        case .summaryWritten:
            // The whole track at once on its own clock; the summary then waits for a standard output nobody reads.
            try run.start(["run", "1m run", "--gps", "file:SampleTracks/demo-short.nmea", "--start", "now"] + live,
                          output: stdout.pipe.fileHandleForWriting.fileDescriptor)
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, (try? run.lastSession().summary?.state) != .completed { usleep(50_000) }
            #expect(try run.lastSession().summary?.state == .completed, "the session is finalised before the summary is printed")
        }
    }

    @Test("a stop ends the command within 2 s, the session finalised", arguments: cases)
    func stopEnds(state: State, way: Way) throws {
        let run = try PrivateRunwalk()
        defer { run.kill() }
        let stdout = FullPipe()
        try Self.start(run, in: state, stdout: stdout)
        try #require(run.isRunning, "runwalk ended before the stop: \(run.stderr)")
        let asked = Date()
        switch way {
        case .sigint: run.send(SIGINT)
        case .sigterm: run.send(SIGTERM)
        case .controlStop: #expect(try run.runwalk(["control", "stop"]).status == 0)
        }
        let status = run.wait(seconds: 2)
        let took = Date().timeIntervalSince(asked)
        try #require(status != nil, "still running 2 s after \(way.rawValue) \(state.rawValue): \(run.stderr)")
        if state == .summaryWritten {
            // Blocked on its output: ended by the stop's deadline, as a signal would end it; the
            // session was saved before the summary was printed, and the message says so.
            #expect(status == (way == .sigint ? 130 : 143), "\(run.stderr)")
            #expect(run.stderr.contains("s of the stop; exiting now (the session is saved)"), "\(run.stderr)")
        } else {
            #expect(status == 0, "\(run.stderr)")
        }
        let (summary, reportSaid) = try run.lastSession()
        #expect(!reportSaid.contains("recovered"), "finalised, not recovered as after a crash: \(reportSaid)")
        switch state {
        case .waitingForFix:
            #expect(summary == nil, "nothing recorded before the workout began")
            #expect(run.stderr.contains("stopped before the workout began"), "\(run.stderr)")
        case .summaryWritten:
            #expect(summary?.state == .completed)
        default:
            #expect(summary?.state == .stopped, "\(run.stderr)")
            #expect(try SummaryJSON.decode(run.stdout).state == .stopped)
        }
        print("stop: \(way.rawValue) \(state.rawValue): ended in \(String(format: "%.2f", took)) s")
    }

    @Test("a second SIGINT or SIGTERM ends the process at once, saying what becomes of the session",
          arguments: [SIGINT, SIGTERM])
    func secondSignal(signal: Int32) throws {
        let run = try PrivateRunwalk()
        defer { run.kill() }
        let stdout = FullPipe()
        try Self.start(run, in: .summaryWritten, stdout: stdout)
        run.send(signal)
        #expect(run.waitForStderr("stopping the workout", seconds: 1))
        let asked = Date()
        run.send(signal)
        let status = run.wait(seconds: 1)
        #expect(status == 128 + signal, "\(run.stderr)")
        #expect(Date().timeIntervalSince(asked) < 1)
        let again = signal == SIGINT ? "interrupted again" : "terminated again"
        // Saved already (it is written before the summary); before that, the message says "exiting
        // now: the session will be recovered at the next start".
        #expect(run.stderr.contains("runwalk: \(again); exiting now (the session is saved)"), "\(run.stderr)")
    }

    // MARK: A completed workout ends its replay

    @Test("the issue's replay: track-loop, \"20s run\" at --speed 10 says \"Workout complete.\" and ends (it waited 181 s)")
    func issueReplayEnds() throws {
        let run = try PrivateRunwalk()
        defer { run.kill() }
        try run.start(["replay", Self.loop, "--workout", "20s run", "--speed", "10", "--voice", "text", "--no-record"])
        let status = run.wait(seconds: 8)
        let took = Date().timeIntervalSince(run.began)
        #expect(status == 0, "\(took) s: \(run.stderr)")
        #expect(run.stderr.contains("Workout complete."), "\(run.stderr)")
        #expect(took < 5, "2 s of workout took \(took) s")
    }

    @Test("demo-short, \"1m run\" at --speed 20 takes about 3 s (it took 12.5 s)")
    func demoShortTakesItsWorkout() throws {
        let run = try PrivateRunwalk()
        defer { run.kill() }
        try run.start(["replay", "SampleTracks/demo-short.nmea", "--workout", "1m run", "--speed", "20", "--json"])
        let status = run.wait(seconds: 10)
        let took = Date().timeIntervalSince(run.began)
        #expect(status == 0, "\(run.stderr)")
        #expect(took >= 2.9 && took < 5.5, "took \(took) s")
        #expect(try run.lastSession().summary?.state == .completed)
    }

    static let samples = ["city-stopgo", "demo-short", "standing-10min", "track-loop-gga", "track-loop", "trail-10hz", "urban-canyon"]

    @Test("a paced replay of every sample track ends with its workout", arguments: samples, [10.0, 50.0])
    func pacedSampleReplay(track: String, speed: Double) throws {
        let run = try PrivateRunwalk()
        defer { run.kill() }
        try run.start(["replay", "SampleTracks/\(track).nmea", "--workout", "10s run", "--speed", String(speed), "--json", "--no-record"])
        let workoutSeconds = 10 / speed
        let status = run.wait(seconds: workoutSeconds + 8)
        let took = Date().timeIntervalSince(run.began)
        try #require(status != nil, "\(track) at \(speed)x still runs after \(took) s: \(run.stderr)")
        #expect(status == 0, "\(run.stderr)")
        #expect(took < workoutSeconds + 3, "\(track) at \(speed)x: \(workoutSeconds) s of workout took \(took) s")
        let summary = try SummaryJSON.decode(run.stdout)
        #expect(summary.state == .completed)
        #expect(summary.durationSeconds == 10)
    }

    @Test("replay - from a pipe that stays open ends with its workout, paced or not", arguments: [nil, 20.0] as [Double?])
    func openPipeReplay(speed: Double?) throws {
        let run = try PrivateRunwalk()
        defer { run.kill() }
        let input = Pipe()
        // The 30-minute loop: its first minute is read well before the track's last chunk (which
        // the reader takes whole: the end of an open pipe's data waits for more).
        let track = try Data(contentsOf: RunWalkBinary.repositoryRoot.appendingPathComponent(Self.loop))
        // The whole track goes in before runwalk starts (a pipe of 1 MiB, the unprivileged limit,
        // holds it: no writer waits, none is left blocked); the pipe is kept open: no end comes.
        let fd = input.fileHandleForWriting.fileDescriptor
        let size = fcntl(fd, 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
        try #require(size >= track.count, "the pipe holds \(size) bytes")
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let written = track.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        try #require(written == track.count)
        try run.start(["replay", "-", "--workout", "1m run", "--json", "--no-record"] + (speed.map { ["--speed", String($0)] } ?? []),
                      input: input.fileHandleForReading.fileDescriptor)
        let status = run.wait(seconds: 10)
        try #require(status != nil, "replay - waits for the end of a pipe that stays open: \(run.stderr)")
        #expect(status == 0, "\(run.stderr)")
        #expect(try SummaryJSON.decode(run.stdout).state == .completed)
        withExtendedLifetime(input) {}
    }
}
