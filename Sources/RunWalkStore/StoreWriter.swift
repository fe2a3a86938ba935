import FoundationEssentials
import RunWalkRuntime
import RunWalkCore
import RunWalkIO

/// The recorder's writer, as the recording side sees it: rows go into a locked hand-over, and a
/// thread of its own commits them in one transaction per tick, keeps them in memory while the
/// disk refuses them, and closes the session at the end.
///
/// Who owns what is in the types: the caller's side has only this class (no mutable state) and
/// the `WriterHandOver` it shares with the writer (all its state under its lock); the writer
/// thread's state (`WriterThread`, with its `CommitSchedule` and `RecordingTarget`) is made on
/// that thread and is not `Sendable`, so nothing else can reach it.
final class StoreWriter: Sendable {
    /// What the writer records and how: fixed for the session, read by every thread.
    struct Job: Sendable {
        let location: StoreLocation
        let storeOptions: RunWalkStore.Options
        let session: SessionRecorder.NewSession
        let settings: SessionRecorder.Settings
        /// When the recording began (names the fallback database).
        let wallMilliseconds: Int64
        let warn: @Sendable (String) -> Void
        /// The session row's owner token (the name of its `SessionLock`).
        let token: String

        /// The store's options with the recorder's page cache.
        var recorderOptions: RunWalkStore.Options { StoreWriter.recorderOptions(storeOptions) }
    }

    private let handOver: WriterHandOver

    /// Takes the session's lock and starts the writer thread (the store is opened and the session
    /// inserted at its first commit).
    init(location: StoreLocation, storeOptions: RunWalkStore.Options, session: SessionRecorder.NewSession,
         settings: SessionRecorder.Settings, wallMilliseconds: Int64, warn: @escaping @Sendable (String) -> Void) {
        let job = Job(location: location, storeOptions: storeOptions, session: session, settings: settings,
                      wallMilliseconds: wallMilliseconds, warn: warn, token: UUID().uuidString)
        let handOver = WriterHandOver(maximumQueuedRows: settings.maximumQueuedRows)
        self.handOver = handOver
        // Taken here, before the first row: the writer thread owns it from now on and releases it.
        let sessionLock = SessionLock(directory: location.locksDirectory, token: job.token)
        // The kernel's thread name (15 bytes at most), for top -H and /proc.
        let started = NamedThread.start(name: "runwalk-store") {
            WriterThread(job: job, handOver: handOver, sessionLock: sessionLock).run()
        }
        if !started {
            // No thread (the process is out of them): the session is not recorded, said once,
            // and `finish` returns at once instead of waiting for a writer that never runs.
            warn("runwalk: warning: cannot record to \(location.databasePath): no thread for the writer")
            handOver.settle(SessionRecorder.Outcome(sessionID: nil, rowsLost: 0))
        }
    }

    /// Queues the rows `produce` appends for the writer (made in place, under the queue's lock);
    /// waits while `maximumQueuedRows` are queued (a replay outrunning SQLite), until the writer
    /// takes them.
    func append(_ produce: (inout [RecordedRow]) -> Void) {
        handOver.append(produce)
    }

    /// The most rows that were queued at once.
    var peakQueuedRows: Int { handOver.peakQueuedRows }

    /// Asks the writer to write what is left and close the session; waits for it to be done.
    func finish(_ closing: Closing) -> SessionRecorder.Outcome {
        handOver.finish(closing)
    }

    /// How the session is closed: with the driver's summary, or one rebuilt from the rows.
    enum Closing: Sendable {
        case summary(Summary, json: String)
        case rebuilt(state: SessionOutcome)
        /// Not a session after all (a replay that found no fixes): its rows go.
        case discarded

        func close(_ db: SQLiteConnection, sessionID: Int64, endedWallMs: Int64) throws {
            switch self {
            case .discarded:
                // Foreign keys (on for every connection) cascade to the session's rows.
                try db.execute("DELETE FROM sessions WHERE id = ?", [sessionID])
            case .summary(let summary, let json):
                try SessionCloser.close(db, sessionID: sessionID, summary: summary, summaryJSON: json, endedWallMs: endedWallMs)
            case .rebuilt(let state):
                let summary = try SummaryRebuilder.summary(db, sessionID: sessionID, state: state)
                try SessionCloser.close(db, sessionID: sessionID, summary: summary, summaryJSON: try SummaryJSON.encode(summary),
                                        endedWallMs: endedWallMs)
            }
        }
    }

    /// At 10 Hz a 0.75 s commit holds about 15 rows; only a backlog is split (each commit
    /// costs WAL pages of its own, so not finer than this).
    static let rowsPerCommit = 500

    /// The recorder's page cache: its inserts touch the last pages of two tables and their
    /// indexes, while SQLite's default 2 MB would fill with the pages `quick_check` reads at the
    /// start (every page of a store holding months of runs) and stay for the whole run.
    static let pageCacheKibibytes = 256

    /// `options` with the recorder's page cache unless they set one.
    static func recorderOptions(_ options: RunWalkStore.Options) -> RunWalkStore.Options {
        var options = options
        options.pageCacheKibibytes = options.pageCacheKibibytes ?? pageCacheKibibytes
        return options
    }

    /// Why a write failed, without the database's path (the warnings name it themselves).
    static func reason(_ error: any Error) -> String {
        if let error = error as? StoreError { return error.reason }
        return String(describing: error)
    }
}
