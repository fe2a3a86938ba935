#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore

/// Runs a recorded NMEA track through the session pipeline, as fast as possible or paced
/// to real time, using the track's own time as the clock. Stretches without a position are
/// GPS gaps as in a live run (`gps_gaps`, "GPS signal lost" / "GPS back").
public struct Replay {
    public var path: String
    public var workout: Workout
    public var options: SessionOptions
    /// Replay speed: nil for as fast as possible, 1 for real time, 10 for ten times faster.
    public var speed: Double?
    /// Opens the track file: the NMEA reader unless a caller passes another (RunWalkTracks' reader of every format).
    public var openReader: @Sendable (String, DiagnosticLog) -> any FixFileReading = { NMEAFileReader(path: $0, diagnostics: $1) }

    public init(path: String, workout: Workout, options: SessionOptions = SessionOptions(), speed: Double? = nil) {
        self.path = path
        self.workout = workout
        self.options = options
        self.speed = speed
    }

    /// What a replay produced.
    public struct Result {
        public var summary: Summary
        public var runner: SessionRunner
        public var diagnostics: DiagnosticLog
        public var statistics: NMEADecoder.Statistics
    }

    /// Reads the whole track; `onEvent` sees every session event in order.
    public func run(diagnostics: DiagnosticLog = DiagnosticLog(), onEvent: (SessionEvent) throws -> Void = { _ in }) throws -> Result {
        var reader = openReader(path, diagnostics)
        var runner = SessionRunner(workout: workout, options: options)
        var firstTime: UTCTime?
        var lastClock = Duration.zero
        var lastPosition: Duration?
        var lost = false
        let pacer = speed.map { RealTimePacer(speed: $0) }
        struct Done: Error {}
        do {
            try reader.read { fix in
                let origin = firstTime ?? fix.time
                if firstTime == nil {
                    firstTime = fix.time
                    for event in runner.start(at: .zero, utc: fix.dateKnown ? fix.time : nil) { try onEvent(event) }
                }
                // A time that goes backwards (some receivers do) is held at the last clock.
                let clock = max(lastClock, fix.time.since(origin))
                pacer?.wait(until: clock)
                // The GPS is lost, as live, after a while without a position (no-fix epochs or none at all).
                let lostAt = lastPosition.map { $0 + .seconds(options.gpsLostAfterSeconds) }
                if let lostAt, !lost, clock > lostAt {
                    lost = true
                    for event in runner.gpsLost(at: max(lastClock, lostAt)) { try onEvent(event) }
                }
                lastClock = clock
                if fix.hasPosition {
                    if lost {
                        lost = false
                        for event in runner.gpsBack(at: clock) { try onEvent(event) }
                    }
                    lastPosition = clock
                }
                for event in runner.ingest(fix, at: clock) { try onEvent(event) }
                let state = runner.engine.state
                if state == .completed || state == .stopped { throw Done() }
            }
        } catch is Done {}
        let trackEndedFirst = runner.engine.state != .completed
        if trackEndedFirst {
            for event in runner.stop(at: lastClock) { try onEvent(event) }
        }
        let statistics = reader.statistics
        var summary = runner.summary(linesBad: statistics.linesBad)
        if trackEndedFirst { summary.state = "incomplete" }
        return Result(summary: summary, runner: runner,
                      diagnostics: reader.diagnostics, statistics: statistics)
    }
}

/// Sleeps so that track time `clock` falls at `clock / speed` of wall time after the first call.
final class RealTimePacer {
    let speed: Double
    private var origin: timespec?

    init(speed: Double) { self.speed = max(0.001, speed) }

    func wait(until clock: Duration) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        guard let origin else { self.origin = now; return }
        let due = Double(origin.tv_sec) + Double(origin.tv_nsec) * 1e-9 + clock.seconds / speed
        let current = Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
        let delay = due - current
        guard delay > 0 else { return }
        var request = timespec(tv_sec: Int(delay), tv_nsec: Int((delay - Double(Int(delay))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}
