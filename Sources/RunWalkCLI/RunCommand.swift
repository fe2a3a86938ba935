import ArgumentParser
import Dispatch
import Foundation
import RunWalkCore
import RunWalkGPS
import RunWalkIO

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a workout live from a GPS: gpsd, a serial receiver, or an NMEA file.",
        discussion: """
            Without a terminal (or with --json) it runs in line mode: one status line per second on \
            standard error, the summary at the end. Ctrl-C (SIGINT) or SIGTERM stops the workout and \
            prints the summary of what was done.
            """)

    enum ClockArgument: String, ExpressibleByArgument, CaseIterable { case monotonic, track }

    @Argument(help: "Workout spec, e.g. \"5m warmup, 8x(90s run, 60s walk), 5m cooldown\".")
    var workout: String

    @Option(name: .long, help: "gpsd[://HOST:PORT] (default localhost:2947), serial:DEVICE[@BAUD] (default 9600), or file:TRACK.")
    var gps: String = "gpsd"

    @OptionGroup var session: SessionArguments

    @Option(name: .long, help: "The clock runs this many times real time; a file: track is paced to it (simulators, tests).")
    var speed: Double?

    @Option(name: .long, help: "monotonic (live; the default) or track (the fixes' own times, as in replay; the default for file: without --speed).")
    var clock: ClockArgument?

    @Option(name: .long, help: "now (the workout's timer starts at once) or fix (at the first GPS fix).")
    var start: LiveStartPolicy = .now

    func validate() throws {
        try validateSpeed(speed)
    }

    func run() throws {
        let parsed = try WorkoutArgument.parse(workout)
        let spec: GPSSourceSpec
        do { spec = try GPSSourceSpec(parsing: gps) } catch { throw UserFacingError.input(error.description) }
        if case .file(let path) = spec, !FileManager.default.fileExists(atPath: path) {
            throw UserFacingError.input("\(path): no such file")
        }
        // The speaker falls back to text (saying so once) when no audio server answers.
        let userSettings = try session.settings()
        let voiceOutput = try session.voiceOutput(userSettings, speed: speed ?? 1)
        let options = session.sessionOptions(userSettings, voice: voiceOutput)
        var settings = LiveSettings(start: start)
        let isFile: Bool = { if case .file = spec { return true } else { return false } }()
        switch clock ?? (isFile && speed == nil ? .track : .monotonic) {
        case .monotonic: settings.clock = .monotonic(scale: speed ?? 1)
        case .track: settings.clock = .track
        }
        let live = LiveRun(workout: parsed, options: options, settings: settings)
        let source = spec.makeSource(speed: speed)
        Terminal.warning("runwalk: \(parsed.spec): GPS from \(source.description)")

        // Recorded as it happens; a crash leaves the session for recovery at the next start.
        let recorder = session.noRecord ? nil : StoreAccess.recorder(workout: parsed, options: options, source: "live:" + gps)
        let result = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let stopRequests = SignalStops.install()
        let units = options.units
        // The run loop is async; this thread only waits for it (it is not a pool thread).
        Task {
            let outcome = await live.run(
                source: source, stopRequests: stopRequests,
                onEvent: { event in
                    recorder?.record(event)
                    voiceOutput.handleReportingFailure(event)
                },
                onMessage: { Terminal.warning("runwalk: gps: \($0)") },
                onStatus: { Terminal.warning(StatusLine.render($0, units: units)) })
            result.set(outcome.summary)
            done.signal()
        }
        done.wait()
        try voiceOutput.finish(sessionSeconds: result.get()?.durationSeconds ?? 0)
        guard let summary = result.get() else {
            recorder?.finishFromRecording(state: "incomplete")
            throw UserFacingError.runtime("the run loop ended without a summary")
        }
        try session.finish(summary, recorder: recorder)
    }
}

extension LiveStartPolicy: ExpressibleByArgument {}

/// Holds the run loop's summary for the waiting thread.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var summary: Summary?
    func set(_ value: Summary) { lock.withLock { summary = value } }
    func get() -> Summary? { lock.withLock { summary } }
}

/// SIGINT and SIGTERM become stop requests, so the session is finalised, not killed.
enum SignalStops {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                Terminal.warning("runwalk: \(number == SIGINT ? "interrupted" : "terminated"); stopping the workout")
                continuation.yield()
            }
            source.resume()
            sources.append(source)
        }
        return stream
    }
}

/// The one-line status for line mode: `12:05 run 3/18 0:48 left  2.31 km  5:40 /km  GPS ok`.
enum StatusLine {
    static func render(_ status: LiveStatus, units: Units) -> String {
        guard let elapsed = status.elapsedSeconds else { return "--:-- waiting for GPS to start  GPS \(status.gps.rawValue)" }
        var parts = [SummaryText.clock(max(0, elapsed))]
        if status.state == .completed || status.state == .stopped {
            parts.append(status.state == .completed ? "done" : "stopped")
        } else if let kind = status.phaseKind, let index = status.phaseIndex {
            parts.append("\(kind.rawValue) \(index + 1)/\(status.phaseCount)")
            if let seconds = status.remainingSeconds {
                parts.append("\(SummaryText.clock(seconds)) left")
            } else if let metres = status.remainingMetres {
                parts.append("\(Int(metres.rounded())) m left")
            }
        } else {
            parts.append("\(status.state)")
        }
        parts.append(SummaryText.distance(status.distanceMetres, units))
        parts.append(SummaryText.pace(status.paceSecondsPerKm, units))
        parts.append("GPS \(status.gps.rawValue)")
        return parts.joined(separator: "  ")
    }
}
