import ArgumentParser
import Dispatch
import FoundationEssentials
import RunWalkCore
import RunWalkDesktop
import RunWalkHost
import RunWalkGPS
import RunWalkIO
import RunWalkRuntime
import RunWalkTerminal
import RunWalkTracks

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a workout live from a GPS: gpsd, a serial receiver, or an NMEA file.",
        discussion: """
            By default the workout waits for the first GPS fix, counts "3, 2, 1" and starts (--start now \
            starts at once). Without a terminal (or with --json) it runs in line mode: a status line a \
            second on standard error, the summary at the end. Ctrl-C (SIGINT), SIGTERM or Ctrl-\\ (SIGQUIT) \
            stops the workout and prints the summary of what was done. Ctrl-Z pauses the workout and \
            stops the program; fg resumes both.
            """)

    enum ClockArgument: String, ExpressibleByArgument, CaseIterable { case monotonic, track }

    @Argument(help: "Workout spec, e.g. \"5m warmup, 8x(90s run, 60s walk), 5m cooldown\".")
    var workout: String

    @Option(name: .long, help: "gpsd[://HOST:PORT] (default localhost:2947), serial:DEVICE[@BAUD] (default 9600), or file:TRACK (default: settings.conf's gps, else gpsd).")
    var gps: String?

    @OptionGroup var session: SessionArguments

    @Option(name: .long, help: "The clock runs this many times real time; a file: track is paced to it (simulators, tests).")
    var speed: Double?

    @Option(name: .long, help: "monotonic (live; the default) or track (the fixes' own times, as in replay; the default for file: without --speed).")
    var clock: ClockArgument?

    @Option(name: .long, help: "fix (wait for the first GPS fix, then \"3, 2, 1\"; the default) or now (the workout's timer starts at once).")
    var start: SessionDriver.StartPolicy = .fix

    @Option(name: .long, help: "Seconds counted down (\"3, 2, 1\") before the first phase when the workout starts from a fix; 0 for none (default: settings.conf's countdown, else 3).")
    var countdown: Int?

    @OptionGroup(title: "Hands-free") var handsFree: HandsFreeArguments

    @OptionGroup(title: "Heart rate") var heartRate: HeartRateArguments

    func validate() throws {
        try validateSpeed(speed)
        if let countdown, !(0...60).contains(countdown) { throw ValidationError("--countdown must be 0 to 60 seconds, not \(countdown)") }
    }

    func run() throws {
        let parsed = try WorkoutArgument.parse(workout)
        let userSettings = try session.settings()
        let spec: GPSSourceSpec
        let gps = self.gps ?? userSettings.gps ?? "gpsd"
        do { spec = try GPSSourceSpec(parsing: gps) } catch {
            // A bad `gps =` line is the settings file's mistake: say so.
            throw UserFacingError.input((self.gps == nil ? "\(UserText.path(SettingsFile().url.path)): gps: " : "") + error.description)
        }
        if case .file(let path) = spec, !FileManager.default.fileExists(atPath: path) {
            throw UserFacingError.input("\(path): no such file")
        }
        // Voice on by default; the speaker falls back to text (saying so once) when no audio server answers.
        let trackHasHeartRate: Bool = { if case .file(let path) = spec { return TrackFormat.of(file: path)?.carriesHeartRate ?? false } else { return false } }()
        try WorkoutArgument.checkHeartRate(parsed, hasHeartRateSource: heartRate.resolved(userSettings) != .off || trackHasHeartRate)
        let voiceOutput = try session.voiceOutput(userSettings, defaultVoice: "speaker", speed: speed ?? 1)
        let options = session.sessionOptions(userSettings, voice: voiceOutput)
        var settings = SessionDriver.Settings(start: start, autoPause: session.autoPause(userSettings))
        settings.startCountdown = .seconds(countdown ?? userSettings.countdownSeconds ?? 3)
        let isFile: Bool = { if case .file = spec { return true } else { return false } }()
        switch clock ?? (isFile && speed == nil ? .track : .monotonic) {
        case .monotonic: settings.clock = .session(scale: speed ?? 1)
        case .track: settings.clock = .track
        }
        var loop = SessionLoop(workout: parsed, options: options, settings: settings)
        loop.wallClock = { UTCTime(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded())) }
        let source = spec.makeSource(speed: speed)
        // A track file that breaks off (damaged, hostile) is an input error, said after the summary.
        let fileFailure = { (source as? NMEAFileSource)?.failure }
        Terminal.warning("runwalk: \(parsed.spec): GPS from \(source.description)")

        // Recorded as it happens; a crash leaves the session for recovery at the next start.
        let host = SessionHost(voice: voiceOutput, recorder: session.noRecord ? nil : {
            StoreAccess.recorder(workout: parsed, options: options, source: "live:" + gps)
        })
        let control = SessionControl()
        SignalCommands.install(control: control)
        // `runwalk control …` and status bars reach the session through its socket.
        let server = ControlServer.startForSession(control: control) { Terminal.warning($0) }
        defer { server?.stop() }
        // With a terminal (and no --json): the full-screen view; else a status line a second.
        let screen = session.json ? nil : TerminalFrontEnd.start(control: control)
        if screen == nil {
            let lines = StatusLine.Printer()
            control.observe { lines.print($0) }
        }
        // Ctrl-Z pauses the workout before the process stops; `fg` takes the terminal back and resumes.
        let suspension = StopSignalPause(control: control)
        defer { suspension.cancel() }
        if let screen { suspension.setTerminal(.init(release: { screen.suspend() }, retake: { screen.retake() })) }
        let messages = ScreenMessages(screen: screen != nil)
        // Spoken cues shown as text would tear the view: the screen shows the phase instead.
        if screen != nil { voiceOutput.textLine = { _ in } }
        let hooks = host.hooks(message: { messages.say("runwalk: gps: \($0)") })
        // Lock screen and headset (MPRIS), notifications, haptics, music, no suspend: all optional.
        let desktop = HandsFree.start(control: control, options: handsFree.options(userSettings, workout: workout, live: true),
                                      warn: { messages.say($0) })
        desktop.observeMusic { [weak screen] playing in screen?.setNowPlaying(playing?.line) }
        if let music = desktop.musicPlayer {
            screen?.setMusicControls { key in key == .next ? music.next() : music.playPause() }
        }
        let strap = HeartRateLink.start(heartRate.resolved(userSettings), control: control, say: { messages.say($0) })
        let configured = loop
        let result = SessionHost.wait { await configured.run(source: source, clock: ContinuousClock(), control: control, hooks: hooks) }
        strap?.stop()
        desktop.stop()
        suspension.setTerminal(nil)
        screen?.stop()
        messages.flush()
        guard result.started else {
            Terminal.warning(result.driver.stopRequested ? "runwalk: stopped before the workout began"
                             : "runwalk: the workout did not start: no GPS fix came before the source ended")
            if result.driver.stopRequested { return }
            if let failure = fileFailure() { throw UserFacingError.input(failure) }
            throw UserFacingError.runtime("no GPS fix from \(source.description)")
        }
        let recorded = try session.record(result.summary, recorder: host.recorder)
        SignalCommands.sessionSaved()
        // The session is saved whatever becomes of the voice; a voice that failed (a partial WAV)
        // then fails the command.
        var voiceFailure: VoiceOutputError?
        do {
            try voiceOutput.finish(sessionSeconds: result.summary.durationSeconds, stopped: result.driver.stopRequested)
        } catch { voiceFailure = error }
        try session.report(recorded)
        if let failure = fileFailure() { throw UserFacingError.input(failure) }
        if let voiceFailure { throw UserFacingError.runtime(voiceFailure.message + " (the session itself was saved)") }
    }
}

extension SessionDriver.StartPolicy: ExpressibleByArgument {}

/// The one-line status for line mode: `12:05 run 3/18 0:48 left  2.31 km  5:40 /km  GPS fix`.
enum StatusLine {
    static func render(_ status: SessionStatus) -> String {
        let units = status.units
        var gps: String
        switch status.gps.state {
        case .noFix: gps = "GPS no fix"
        case .fix: gps = "GPS fix" + (status.gps.satellites.map { " \($0) sats" } ?? "")
        case .lost: gps = "GPS lost" + (status.gps.lostForSeconds.map { " \(SummaryText.clock($0))" } ?? "")
        }
        // What the source says is in the way ("gpsd has no receiver") beats a bare "no fix".
        if status.gps.state != .fix, let problem = status.gps.problem { gps = "GPS: \(problem)" }
        switch status.stage {
        case .waitingForFix: return "--:-- waiting for a GPS fix to start  \(gps)"
        case .startCountdown: return "--:-- starting in \(status.startCountdownSeconds ?? 0)  \(gps)"
        default: break
        }
        var parts = [SummaryText.clock(max(0, status.workoutElapsedSeconds))]
        if status.isFinished {
            parts.append(status.stage == .completed ? "done" : "stopped")
        } else if let phase = status.phase {
            parts.append("\(phase.kind.rawValue) \(phase.index + 1)/\(status.phaseCount)")
            if let seconds = status.phaseRemainingSeconds {
                parts.append("\(SummaryText.clock(seconds)) left")
            } else if let metres = status.phaseRemainingMetres {
                parts.append("\(Int(metres.rounded())) m left")
            }
            if status.paused { parts.append(status.autoPaused ? "AUTO-PAUSED" : "PAUSED") }
        }
        parts.append(SummaryText.distance(status.distanceMetres, units))
        parts.append(SummaryText.pace(status.currentPaceSecondsPerKm, units))
        if let bpm = status.heartRateBPM { parts.append("HR \(bpm)" + (status.heartRateZone.map { " Z\($0)" } ?? "")) }
        parts.append(gps)
        return parts.joined(separator: "  ")
    }

    /// Prints a status line when its second (or its stage, phase or pause) changes: one a second.
    final class Printer: @unchecked Sendable {
        private let lock = Lock()
        private var last: String?

        func print(_ status: SessionStatus) {
            let line = StatusLine.render(status)
            let fresh: Bool = lock.withLock {
                defer { last = line }
                return line != last
            }
            if fresh { Terminal.warning(line) }
        }
    }
}

/// Messages for the user while the full-screen view is up are kept and printed once the
/// terminal is restored (they would tear the view); in line mode they go out at once.
final class ScreenMessages: @unchecked Sendable {
    private let held: Bool
    private let lock = Lock()
    private var kept: [String] = []

    init(screen: Bool) { held = screen }

    func say(_ line: String) {
        guard held else { return Terminal.warning(line) }
        lock.withLock { kept.append(line) }
    }

    func flush() {
        for line in lock.withLock({ kept }) { Terminal.warning(line) }
        lock.withLock { kept.removeAll() }
    }
}
