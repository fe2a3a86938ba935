#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import RunWalkRuntime
import RunWalkCore
import RunWalkIO

/// The recorder's writer thread: commits buffered rows in one transaction per tick, keeps
/// them in memory while the disk refuses them, and closes the session at the end.
final class StoreWriter: @unchecked Sendable {
    private let location: StoreLocation
    private let storeOptions: RunWalkStore.Options
    private let session: SessionRecorder.NewSession
    private let settings: SessionRecorder.Settings
    private let wallMilliseconds: Int64
    private let warn: @Sendable (String) -> Void
    private let token = UUID().uuidString
    private let lock: SessionLock?
    /// Held shared while the session records (writer thread only): `recover --salvage` waits for it.
    private var storeLock: StoreLock?

    // Shared with the recording thread, under `condition`.
    private let condition = Condition()
    private var buffer: [RecordedRow] = []
    /// The writer sleeps with no deadline and waits to be signalled by `append`.
    private var idle = false
    private var finishRequest: Closing?
    /// The recording side waits for the writer to take the queue.
    private var queueFull = false
    /// The most rows ever queued at once (tests check the bound with it).
    private var peakQueued = 0
    private var outcome: SessionRecorder.Outcome?
    /// The usual database's quick_check, once it has answered (set by the check's thread).
    private var checkAnswer: CheckAnswer?

    // Writer thread only.
    private var store: RunWalkStore?
    private var sessionID: Int64?
    private var unwritten: [RecordedRow] = []
    /// An empty array whose storage the queue takes next.
    private var spare: [RecordedRow] = []
    private var failureReported = false
    private var failing = false
    private var nextAttempt = Date.distantPast
    private var uncheckpointed = false
    /// Set once the usual database was found damaged.
    private var fallback: StoreLocation?
    /// The usual database's check is running (or its answer not yet acted on): every row committed
    /// there meanwhile is also held in `unverified`.
    private var checkPending = false
    /// Rows committed to the usual database before its check answered: written again, to the
    /// fallback, if the check finds the file damaged.
    private var unverified: [RecordedRow] = []
    private var lastCheckpoint = Date()
    private var lastCommit = Date.distantPast

    init(location: StoreLocation, storeOptions: RunWalkStore.Options, session: SessionRecorder.NewSession,
         settings: SessionRecorder.Settings, wallMilliseconds: Int64, warn: @escaping @Sendable (String) -> Void) {
        self.location = location
        self.storeOptions = storeOptions
        self.session = session
        self.settings = settings
        self.wallMilliseconds = wallMilliseconds
        self.warn = warn
        lock = SessionLock(directory: location.locksDirectory, token: token)
    }

    func start() {
        // The kernel's thread name (15 bytes at most), for top -H and /proc.
        if !NamedThread.start(name: "runwalk-store", { [self] in run() }) {
            // No thread (the process is out of them): the session is not recorded, said once,
            // and `finish` returns at once instead of waiting for a writer that never runs.
            warn("runwalk: warning: cannot record to \(location.databasePath): no thread for the writer")
            condition.withLock { outcome = SessionRecorder.Outcome(sessionID: nil, rowsLost: 0) }
        }
    }

    /// Queues the rows `produce` appends for the writer (made in place, under the queue's lock);
    /// waits while `maximumQueuedRows` are queued (a replay outrunning SQLite), until the writer
    /// takes them.
    func append(_ produce: (inout [RecordedRow]) -> Void) {
        condition.lock()
        while buffer.count >= settings.maximumQueuedRows, finishRequest == nil, outcome == nil {
            // Wake the writer now rather than at its next tick, then wait for it to take the queue.
            queueFull = true
            condition.broadcast()
            condition.wait()
        }
        let before = buffer.count
        produce(&buffer)
        peakQueued = max(peakQueued, buffer.count)
        // A writer gathering rows for its next commit is not woken: it commits at its deadline.
        let wake = idle && buffer.count > before
        condition.unlock()
        // Signalled after the unlock: woken while this thread still holds the lock, the writer
        // can block on it at once and need a second wake-up. Its waits re-check what they wait
        // for, so a signal that comes late is harmless.
        if wake { condition.signal() }
    }

    /// The most rows that were queued at once.
    var peakQueuedRows: Int {
        condition.lock()
        defer { condition.unlock() }
        return peakQueued
    }

    /// How the session is closed: with the driver's summary, or one rebuilt from the rows.
    enum Closing {
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

    func finish(_ closing: Closing) -> SessionRecorder.Outcome {
        condition.lock()
        defer { condition.unlock() }
        if let outcome { return outcome }
        finishRequest = closing
        condition.broadcast()
        while outcome == nil { condition.wait() }
        return outcome ?? SessionRecorder.Outcome(sessionID: nil, rowsLost: 0)
    }

    /// Commits rows at most every `commitIntervalSeconds` and sleeps without a deadline while
    /// none come: each wake-up costs a handheld's battery. Rows that arrive after a quiet spell
    /// wake it and are committed at once (or at the end of the interval after the last commit);
    /// while they keep coming it commits once an interval without being woken by each of them.
    /// Either way a row waits at most `commitIntervalSeconds`: the crash bound.
    private func run() {
        // The first commit goes at once: the session row exists from the start of the recording.
        var due: Date? = Date()
        while true {
            condition.lock()
            var wokenByRows = false
            if let due {
                // A full queue (a replay outrunning SQLite) is taken at once.
                while finishRequest == nil, !queueFull, condition.wait(seconds: max(0, due.timeIntervalSinceNow)) {}
            } else {
                // Idle: until rows come, the session ends, or a checkpoint is due.
                idle = true
                if let wake = checkpointDue {
                    while finishRequest == nil, buffer.isEmpty, condition.wait(seconds: max(0, wake.timeIntervalSinceNow)) {}
                } else {
                    while finishRequest == nil, buffer.isEmpty { condition.wait() }
                }
                idle = false
                wokenByRows = !buffer.isEmpty
            }
            // The queue's storage goes round three arrays (queue, unwritten, spare), so a replay
            // does not grow a fresh one (and fault its pages in) for every batch.
            var rows: [RecordedRow] = []
            swap(&rows, &spare)
            swap(&rows, &buffer)
            let tookRows = !rows.isEmpty
            if queueFull {
                queueFull = false
                condition.broadcast()
            }
            let request = finishRequest
            condition.unlock()

            if unwritten.isEmpty {
                swap(&unwritten, &rows)
            } else {
                unwritten += rows
            }
            rows.removeAll(keepingCapacity: true)
            swap(&spare, &rows)
            if let request {
                let result = close(request)
                condition.lock()
                outcome = result
                condition.broadcast()
                condition.unlock()
                return
            }
            let now = Date()
            if wokenByRows, now < lastCommit.addingTimeInterval(settings.commitIntervalSeconds) {
                // Rows soon after a commit: more are likely on their way; gather them until the
                // interval is over (they wait at most the interval).
                due = lastCommit.addingTimeInterval(settings.commitIntervalSeconds)
                continue
            }
            var committed = false
            if (!unwritten.isEmpty || sessionID == nil), now >= nextAttempt {
                let pending = !unwritten.isEmpty
                if flush() {
                    committed = true
                    lastCommit = now
                    if pending { uncheckpointed = true }
                }
            }
            checkpointIfDue()
            if !unwritten.isEmpty || sessionID == nil {
                // The disk refused: retry at the retry interval (or at once after a fallback switch).
                due = max(nextAttempt, now.addingTimeInterval(settings.commitIntervalSeconds))
            } else if committed && !wokenByRows && tookRows {
                // Rows keep coming (they arrived while the last interval ran): keep the pace.
                due = now.addingTimeInterval(settings.commitIntervalSeconds)
            } else {
                due = nil
            }
        }
    }

    /// When the next checkpoint is due (nil: nothing new to checkpoint).
    private var checkpointDue: Date? {
        uncheckpointed ? lastCheckpoint.addingTimeInterval(settings.checkpointIntervalSeconds) : nil
    }

    /// Writes everything unwritten, oldest first, in transactions of at most `rowsPerCommit`
    /// rows, halving them when the disk is full so that what still fits goes in; false when
    /// SQLite refuses, with the rows not yet committed kept for the next attempt. The session is
    /// closed only once the usual database's check has answered, and at most
    /// `maximumQueuedRows` rows wait for that answer in memory.
    private func flush(closing: Closing? = nil) -> Bool {
        do {
            _ = try openStore()
            settleCheck(waiting: closing != nil || unverified.count >= settings.maximumQueuedRows)
            let store = try openStore()
            var written = 0
            defer { unwritten.removeFirst(written) }
            var chunkSize = Self.rowsPerCommit
            repeat {
                let chunk = unwritten[written..<min(unwritten.count, written + chunkSize)]
                let isLast = written + chunk.count == unwritten.count
                let wall = SessionRecorder.wallMilliseconds()
                let known = sessionID
                do {
                    // The id is kept only once the transaction has committed (a failed commit rolls the row back).
                    sessionID = try store.write { db in
                        let id = try known ?? insertSession(db)
                        try RowStatements.inserting(db, sessionID: id) { statements in
                            for row in chunk { try row.write(db, sessionID: id, statements: &statements) }
                        }
                        if isLast, let closing { try closing.close(db, sessionID: id, endedWallMs: wall) }
                        return id
                    }
                } catch let error as StoreError where error.isDiskFull && chunkSize > 1 {
                    // Nearly full: halve the chunk until what still fits goes in.
                    chunkSize /= 2
                    continue
                }
                written += chunk.count
                if checkPending { unverified += chunk }
            } while written < unwritten.count
            if failing {
                failing = false
                warn("runwalk: recording resumed: the store accepts writes again")
            }
            return true
        } catch let error as StoreError where error.isCorrupt && fallback == nil {
            // Damage met mid-session: the rest goes to the fallback at the next tick.
            moveToFallback(finding: Self.reason(error))
            return false
        } catch {
            // A failed transaction is rolled back whole, so nothing half-written is left behind.
            failing = true
            nextAttempt = Date().addingTimeInterval(settings.retryIntervalSeconds)
            if !failureReported {
                failureReported = true
                warn("runwalk: warning: cannot record to \(location.databasePath): \(Self.reason(error)); "
                     + "the workout goes on, unsaved data is kept in memory and retried")
            }
            return false
        }
    }

    /// Syncs what was committed to the disk (the WAL, then the database) every
    /// `checkpointIntervalSeconds` while there is something new: the power-loss bound. PASSIVE
    /// never waits for a reader; a failure is left for the next one (the rows are committed).
    private func checkpointIfDue() {
        guard uncheckpointed, let store, Date().timeIntervalSince(lastCheckpoint) >= settings.checkpointIntervalSeconds - 0.01 else { return }
        lastCheckpoint = Date()
        if (try? store.checkpoint()) != nil { uncheckpointed = false }
    }

    /// At 10 Hz a 0.75 s commit holds about 15 rows; only a backlog is split (each commit
    /// costs WAL pages of its own, so not finer than this).
    static let rowsPerCommit = 500

    private func close(_ closing: Closing) -> SessionRecorder.Outcome {
        // A damaged file met at the end switches to the fallback: one more try there.
        let usedFallback = fallback != nil
        if flush(closing: closing) || (!usedFallback && fallback != nil && flush(closing: closing)) {
            // The finished session reaches the disk before the command reports it saved.
            try? store?.checkpoint()
            lock?.release()
            storeLock?.release()
            return SessionRecorder.Outcome(sessionID: sessionID, rowsLost: 0)
        }
        // Keep what fits: close the session row alone (an update in place needs no new pages).
        var closed = false
        if let store, let sessionID {
            let wall = SessionRecorder.wallMilliseconds()
            closed = (try? store.write { db in
                try closing.close(db, sessionID: sessionID, endedWallMs: wall)
            }) != nil
        }
        if closed { lock?.release() } else { lock?.release(removingFile: false) }
        storeLock?.release()
        warn("runwalk: warning: recording incomplete: \(unwritten.count) rows (fixes, track points, cues, events) were not saved"
             + (closed ? "; the session's summary was saved" : ""))
        let fixes = unwritten.compactMap { row -> Fix? in
            if case .fix(let update, _) = row { return update.raw }
            return nil
        }
        return SessionRecorder.Outcome(sessionID: sessionID, rowsLost: unwritten.count, unsavedFixes: fixes)
    }

    /// Opens the store. A damaged database (quick_check not `ok`) does not keep the session: it
    /// goes to a fallback database beside it, named in one warning.
    private func openStore() throws -> RunWalkStore {
        if let store { return store }
        if storeLock == nil {
            storeLock = StoreLock(location: location, exclusive: false)
            // A salvage holds it exclusively: the rows wait in memory and are retried. (A folder
            // that cannot be written has no lock file: opening the store says why.)
            if storeLock == nil, access(location.directory, W_OK) == 0 {
                throw StoreError.sqlite("the store is being salvaged by `runwalk recover --salvage`", path: location.databasePath)
            }
        }
        if fallback == nil {
            do {
                let opened = try RunWalkStore(location: location, options: recorderOptions)
                store = opened
                startCheck(of: opened)
                return opened
            } catch let error as StoreError where error.isCorrupt {
                return try openFallback(finding: Self.reason(error))
            }
        }
        return try openFallback(finding: nil)
    }

    /// What the usual database's quick_check found.
    enum CheckAnswer: Sendable {
        case sound
        case damaged(String)
    }

    /// Runs quick_check of the usual database on a thread of its own, on a reader. It reads every
    /// page: about a second for a 347 MB store from the page cache on the 2-core machine, more
    /// from a phone's eMMC. The recording commits as usual meanwhile, so a crash then still loses
    /// at most one commit interval; only a replay that outruns the check by `maximumQueuedRows`
    /// rows waits for it.
    private func startCheck(of opened: RunWalkStore) {
        checkPending = true
        let check = settings.storeCheck
        let body: @Sendable () -> Void = { [self] in
            let answer: CheckAnswer
            do {
                let found = try check(opened)
                answer = found == "ok" ? .sound : .damaged(found)
            } catch let error as StoreError where error.isCorrupt {
                answer = .damaged(Self.reason(error))
            } catch {
                // Not a finding about the file (out of memory, say): the recording stays there.
                answer = .sound
            }
            opened.closeIdleReaders()
            condition.lock()
            checkAnswer = answer
            condition.broadcast()
            condition.unlock()
        }
        if !NamedThread.start(name: "runwalk-check", body) { body() }
    }

    /// Acts on the check's answer, once there is one (waited for when `waiting`): rows held for
    /// it are let go when the file is sound; when it is damaged, the session moves to the fallback.
    private func settleCheck(waiting: Bool) {
        guard checkPending else { return }
        condition.lock()
        while waiting, checkAnswer == nil { condition.wait() }
        let answer = checkAnswer
        condition.unlock()
        switch answer {
        case nil:
            return
        case .sound:
            checkPending = false
            unverified = []
        case .damaged(let finding):
            moveToFallback(finding: finding)
        }
    }

    /// Sends the rest of the session to the fallback database. While the usual file's check had
    /// not answered, every row committed there is still held: they go to the fallback too, and the
    /// session is deleted from the damaged file (if the damage lets it). Once the file was found
    /// sound, what was committed before the damage stays there, for `recover --salvage`.
    private func moveToFallback(finding: String) {
        if checkPending {
            if let store, let sessionID {
                // Foreign keys cascade to the session's rows.
                _ = try? store.write { db in try db.execute("DELETE FROM sessions WHERE id = ?", [sessionID]) }
            }
            unwritten = unverified + unwritten
        }
        checkPending = false
        unverified = []
        store = nil
        _ = try? openFallback(finding: finding)
        nextAttempt = Date()
    }

    /// The database the session goes to when the usual one is damaged: `fallback-MS/runwalk.sqlite`
    /// in the data folder (owner-only like it).
    private func openFallback(finding: String?) throws -> RunWalkStore {
        let target = fallback ?? StoreLocation(directory: location.directory + "/fallback-\(wallMilliseconds)")
        if fallback == nil, let finding {
            warn("runwalk: warning: \(UserText.path(location.databasePath)) is damaged (quick_check: "
                 + "\(UserText.printable(finding.split(separator: "\n").first ?? "", limit: 120))); this session is recorded in "
                 + "\(UserText.path(target.databasePath)) instead; `runwalk recover --salvage` keeps what the damaged file still holds")
        }
        fallback = target
        sessionID = nil
        let opened = try RunWalkStore(location: target, options: recorderOptions)
        store = opened
        return opened
    }

    /// The recorder's page cache: its inserts touch the last pages of two tables and their
    /// indexes, while SQLite's default 2 MB would fill with the pages `quick_check` reads at the
    /// start (every page of a store holding months of runs) and stay for the whole run.
    static let pageCacheKibibytes = 256

    private var recorderOptions: RunWalkStore.Options { Self.recorderOptions(storeOptions) }

    /// `options` with the recorder's page cache unless they set one.
    static func recorderOptions(_ options: RunWalkStore.Options) -> RunWalkStore.Options {
        var options = options
        options.pageCacheKibibytes = options.pageCacheKibibytes ?? pageCacheKibibytes
        return options
    }

    /// Inserts the session row and its planned phases; returns its id.
    private func insertSession(_ db: SQLiteConnection) throws -> Int64 {
        try db.execute("""
            INSERT INTO sessions (workout_spec, source, units, get_ready_s, recorded_wall_ms, state, owner_token)
            VALUES (?, ?, ?, ?, ?, 'recording', ?)
            """, [session.workout.spec, session.source, session.options.units.rawValue,
                             session.options.getReady.seconds, wallMilliseconds, (lock == nil ? nil : token) as String?])
        let id = db.lastInsertedRowID
        for (index, phase) in session.workout.phases.enumerated() {
            try db.execute("""
                INSERT INTO phases (session_id, idx, kind, planned_duration_s, planned_distance_m) VALUES (?, ?, ?, ?, ?)
                """, [id, index, phase.kind.rawValue, phase.target.durationSeconds, phase.target.distanceMetres])
        }
        return id
    }

    static func reason(_ error: Error) -> String {
        if let error = error as? StoreError {
            if case .sqlite(let message, _) = error { return message }
            return error.description
        }
        return String(describing: error)
    }
}
