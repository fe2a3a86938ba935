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
        let choice = try WorkoutArgument.choice(workout)
        let parsed = choice.workout
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
        let trackHasHeartRate: Bool = { if case .file(let path) = spec { return TrackFormat.of(file: path)?.carriesHeartRate ?? false } else { return false } }()
        try WorkoutArgument.checkHeartRate(parsed, hasHeartRateSource: heartRate.resolved(userSettings) != .off || trackHasHeartRate)
        let isFile: Bool = { if case .file = spec { return true } else { return false } }()
        // Voice on by default; the speaker falls back to text (saying so once) when no audio server answers.
        let clockMode: SessionRequest.ClockMode
        switch clock ?? (isFile && speed == nil ? .track : .monotonic) {
        case .monotonic: clockMode = .wallClock(speed: speed)
        case .track: clockMode = .trackTime(speed: speed)
        }
        var request = SessionRequest(workout: choice.request, source: .live(gps: gps), settings: userSettings, clock: clockMode,
                                     defaultVoice: "speaker", program: "runwalk", recordedSource: "live:" + gps)
        request.record = !session.noRecord
        request.start = start
        if let countdown { request.countdownSeconds = countdown }
        request.signals = .all
        // Lock screen and headset (MPRIS), notifications, haptics, music, no suspend: all optional.
        request.handsFree = handsFree.options(userSettings, workout: workout, live: true)
        let prepared = try SessionArguments.prepare(request)
        // A track file that breaks off (damaged, hostile) is an input error, said after the summary.
        Terminal.warning("runwalk: \(parsed.spec): GPS from \(prepared.sourceDescription)")
        let control = prepared.control
        // `runwalk control …` and status bars reach the session through its socket; one session
        // runs at a time, so a second start is refused naming the one that runs.
        do { try prepared.claimControl() } catch { throw error.userFacing }
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
        if screen != nil { prepared.voice.textLine = { _ in } }
        prepared.messages = { messages.say($0) }
        let handle: SessionHandle
        do { handle = try prepared.start() } catch {
            screen?.stop()
            throw error.userFacing
        }
        defer { handle.close() }
        if let desktop = handle.handsFree {
            desktop.observeMusic { [weak screen] playing in screen?.setNowPlaying(playing?.line) }
            if let music = desktop.musicPlayer {
                screen?.setMusicControls { key in key == .next ? music.next() : music.playPause() }
            }
        }
        let strap = HeartRateLink.start(heartRate.resolved(userSettings), control: control, say: { messages.say($0) })
        let outcome = handle.waitForOutcome()
        strap?.stop()
        suspension.setTerminal(nil)
        screen?.stop()
        messages.flush()
        guard outcome.started else {
            Terminal.warning(outcome.result.driver.stopRequested ? "runwalk: stopped before the workout began"
                             : "runwalk: the workout did not start: no GPS fix came before the source ended")
            if outcome.result.driver.stopRequested { return }
            if let failure = outcome.sourceFailure { throw UserFacingError.input(failure) }
            throw UserFacingError.runtime("no GPS fix from \(prepared.sourceDescription)")
        }
        // The session is saved whatever becomes of the voice; a voice that failed (a partial WAV)
        // then fails the command.
        try session.report(outcome)
        if let failure = outcome.sourceFailure { throw UserFacingError.input(failure) }
        if let voiceFailure = outcome.voiceFailure { throw UserFacingError.runtime(voiceFailure.message + " (the session itself was saved)") }
    }
}

extension SessionDriver.StartPolicy: ExpressibleByArgument {}

/// The one-line status for line mode: `12:05 run 3/18 0:48 left  2.31 km  5:40 /km  GPS fix 9 sats`.
enum StatusLine {
    static func render(_ status: SessionStatus) -> String {
        let units = status.units
        let gps = status.gps.text
        switch status.stage {
        case .waitingForFix: return "--:-- waiting for a GPS fix to start  \(gps)"
        case .startCountdown: return "--:-- starting in \(status.startCountdownSeconds ?? 0)  \(gps)"
        default: break
        }
        var parts = [TimeText.clock(max(0, status.workoutElapsedSeconds))]
        if status.isFinished {
            parts.append(status.stage == .completed ? "done" : "stopped")
        } else if let phase = status.phase {
            parts.append("\(phase.kind.rawValue) \(phase.index + 1)/\(status.phaseCount)")
            if let seconds = status.phaseRemainingSeconds {
                parts.append("\(TimeText.clock(seconds)) left")
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
