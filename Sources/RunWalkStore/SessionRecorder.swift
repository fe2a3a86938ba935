import FoundationEssentials
import RunWalkCore

/// Records a session into the store as it happens, from any driver (replay, live run):
/// feed it every `SessionEvent`, then call `finish`.
///
/// `record(_:)` only turns the event into rows and appends them to a buffer, so the caller
/// (the engine's loop) never waits for the disk. A writer thread commits the buffer in one
/// transaction every `commitIntervalSeconds` (0.75 s by default), so a crash loses at most
/// that much. When a write fails (disk full, read-only folder) the rows stay in memory and are
/// retried; the failure is reported once through `warn`; the session goes on.
///
/// ```swift
/// let recorder = SessionRecorder(location: .fromEnvironment(),
///                                session: .init(workout: workout, options: options, source: "replay:track.nmea"),
///                                warn: { Terminal.warning($0) })
/// let result = try replay.run { event in recorder.record(event) }
/// recorder.finish(summary: result.summary, summaryJSON: try SummaryJSON.encode(result.summary))
/// ```
public final class SessionRecorder: @unchecked Sendable {
    /// What is recorded: the workout, its options, and where the fixes come from.
    public struct NewSession: Sendable {
        public var workout: Workout
        public var options: SessionOptions
        /// `replay:PATH`, `gpsd://HOST:PORT`, `serial:/dev/ttyACM0`, …
        public var source: String

        public init(workout: Workout, options: SessionOptions, source: String) {
            self.workout = workout
            self.options = options
            self.source = source
        }
    }

    /// Timing of the writer.
    public struct Settings: Sendable {
        /// Wall time between commits, seconds: the most a crash of the process may lose, short of
        /// the promised second by what a commit and a loaded machine's scheduling take. Each
        /// commit wakes the writer (a handheld's battery pays): four a second cost 6–7 wake-ups a
        /// second at 10 Hz, this about 2.
        public var commitIntervalSeconds = 0.75
        /// Wall time between retries after a failed write, seconds.
        public var retryIntervalSeconds = 1.0
        /// Wall time between checkpoints, seconds: with `synchronous=NORMAL` in WAL mode a commit
        /// reaches the OS at once (a crash of the process loses at most `commitIntervalSeconds`)
        /// but the disk only at a checkpoint, so a power loss loses at most this much.
        public var checkpointIntervalSeconds = 10.0
        /// Rows handed over and not yet taken by the writer at which `record` waits for it. A
        /// replay makes rows far faster than SQLite takes them: without a bound a 5-hour track
        /// at 10 Hz queued all its 360,000 rows (about 200 MB). The writer takes the queue at
        /// every tick, also while the disk refuses rows (they are kept on its side), so a live
        /// session, at 20 rows a second, never comes near it.
        public var maximumQueuedRows = 8192
        /// The usual database's damage check (tests hold it back or make it find damage).
        var storeCheck: @Sendable (RunWalkStore) throws -> String = { try $0.quickCheck() }

        public init() {}
    }

    /// How the recording ended.
    public struct Outcome: Sendable, Equatable {
        /// The session's number in the store, when its row could be written.
        public var sessionID: Int64?
        /// Rows that could not be written (zero when everything was saved).
        public var rowsLost: Int
        /// The receiver's fixes among those rows, in order: what a fallback track file can hold.
        public var unsavedFixes: [Fix] = []
    }

    private let writer: StoreWriter
    private let getReadySeconds: Double
    // Translation state: touched only by the caller of `record`.
    private var sawTelemetry = false
    private var lastTrackDistance = 0.0

    /// Starts recording (the writer thread opens the store and inserts the session on its first commit).
    public init(location: StoreLocation, storeOptions: RunWalkStore.Options = RunWalkStore.Options(),
                session: NewSession, settings: Settings = Settings(), warn: @escaping @Sendable (String) -> Void) {
        getReadySeconds = session.options.getReady.seconds
        writer = StoreWriter(location: location, storeOptions: storeOptions, session: session,
                             settings: settings, wallMilliseconds: Self.wallMilliseconds(), warn: warn)
    }

    /// Records one event; cheap and never blocks on the disk.
    public func record(_ event: SessionEvent) {
        writer.append { rows in appendRows(for: event, to: &rows) }
    }

    /// The most rows that waited for the writer at once (for tests of the queue's bound).
    var peakQueuedRows: Int { writer.peakQueuedRows }

    /// Records the events of one step together: one hand-over to the writer thread (which sleeps
    /// until rows come), however many events a fix brought.
    public func record(contentsOf events: [SessionEvent]) {
        writer.append { rows in
            for event in events { appendRows(for: event, to: &rows) }
        }
    }

    /// Writes what is left and closes the session with its summary; blocks until done.
    @discardableResult
    public func finish(summary: Summary, summaryJSON: String) -> Outcome {
        writer.finish(.summary(summary, json: summaryJSON))
    }

    /// Closes the session when the driver failed before it had a summary (a track that could
    /// not be read to the end, a lost device): the summary is rebuilt from what was recorded.
    @discardableResult
    public func finishFromRecording(state: SessionOutcome = .incomplete) -> Outcome {
        writer.finish(.rebuilt(state: state))
    }

    /// Deletes what was recorded: the driver found nothing to record (a file with no fixes).
    @discardableResult
    public func discard() -> Outcome {
        writer.finish(.discarded)
    }

    /// Appends the rows `event` makes (none for some) straight to the writer's queue: a replay
    /// makes two rows per fix, and each array made on the way was an allocation and a copy.
    private func appendRows(for event: SessionEvent, to rows: inout [RecordedRow]) {
        switch event {
        case .telemetry(let update, let clockSeconds):
            let at = clockSeconds - getReadySeconds
            if !sawTelemetry {
                sawTelemetry = true
                if let raw = update.raw, raw.dateKnown { rows.append(.startTime(update.time.adding(.seconds(double: -clockSeconds)))) }
            }
            rows.append(.fix(update, atSeconds: at))
        case .trackPoint(let point):
            lastTrackDistance = point.distanceMetres
            rows.append(.trackPoint(point))
        case .split(let split):
            rows.append(.split(split))
        case .cue(let cue):
            rows.append(.cue(cue, atSeconds: cue.atSeconds - getReadySeconds))
        case .engine(let engineEvent):
            if let row = row(for: engineEvent) { rows.append(row) }
        case .gps:
            // Recorded through the `happened` event that comes with it.
            break
        case .happened(let record):
            rows.append(.event(kind: record.kind, atSeconds: record.atSeconds - getReadySeconds, phaseIndex: record.phaseIndex))
        case .heartRate(let sample):
            rows.append(.heartRate(sample, atSeconds: sample.seconds - getReadySeconds))
        }
    }

    private func row(for event: EngineEvent) -> RecordedRow? {
        let at = event.time.seconds - getReadySeconds
        switch event {
        case .phaseStarted(let index, _):
            return .phaseStarted(index: index, atSeconds: at, distanceMetres: lastTrackDistance)
        case .phaseEnded(let record):
            return .phaseEnded(index: record.index, endSeconds: at, durationSeconds: record.activeDuration.seconds,
                               distanceMetres: record.distanceMetres, reason: record.reason)
        case .countdown, .halfway, .paused, .resumed, .workoutCompleted, .workoutStopped:
            // Pauses, resumes and the end are recorded through the session's `happened` events.
            return nil
        }
    }

    static func wallMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
