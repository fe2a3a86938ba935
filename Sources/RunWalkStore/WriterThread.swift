import FoundationEssentials
import RunWalkCore
import RunWalkIO

/// The writer thread's state and loop: made on that thread by `StoreWriter` and never handed to
/// another (it is not `Sendable`), so none of it needs a lock. It takes the queued rows from the
/// hand-over, commits them as `CommitSchedule` paces it into the database `RecordingTarget`
/// holds, keeps them while the disk refuses them, and closes the session at the end.
final class WriterThread {
    private let job: StoreWriter.Job
    private let handOver: WriterHandOver
    /// The session's lock file, released when the session is closed.
    private let sessionLock: SessionLock?
    private var target: RecordingTarget
    private var schedule: CommitSchedule
    /// Rows taken from the queue and not yet committed, oldest first.
    private var unwritten: [RecordedRow] = []
    /// An empty array whose storage the queue takes next.
    private var spare: [RecordedRow] = []
    /// The disk refused rows and has not taken them since (said once, and once when it does).
    private var failing = false
    private var failureReported = false

    init(job: StoreWriter.Job, handOver: WriterHandOver, sessionLock: SessionLock?) {
        self.job = job
        self.handOver = handOver
        self.sessionLock = sessionLock
        target = RecordingTarget(job: job, handOver: handOver)
        schedule = CommitSchedule(job.settings, now: Date())
    }

    /// Commits rows at most every `commitIntervalSeconds` and sleeps without a deadline while
    /// none come: each wake-up costs a handheld's battery. Rows that arrive after a quiet spell
    /// wake it and are committed at once (or at the end of the interval after the last commit);
    /// while they keep coming it commits once an interval without being woken by each of them.
    /// Either way a row waits at most `commitIntervalSeconds`: the crash bound.
    func run() {
        // The first commit goes at once: the session row exists from the start of the recording.
        var wait = WriterHandOver.Wait.until(Date())
        while true {
            let taken = handOver.take(after: wait, swappingIn: &spare)
            var rows = taken.rows
            let tookRows = !rows.isEmpty
            if unwritten.isEmpty {
                swap(&unwritten, &rows)
            } else {
                unwritten += rows
            }
            rows.removeAll(keepingCapacity: true)
            swap(&spare, &rows)
            if let closing = taken.finish {
                handOver.settle(close(closing))
                return
            }
            let now = Date()
            if let deadline = schedule.gatheringDeadline(wokenByRows: taken.wokenByRows, at: now) {
                wait = .until(deadline)
                continue
            }
            var committed = false
            if hasBacklog, schedule.mayWrite(at: now) {
                let withRows = !unwritten.isEmpty
                if flush() {
                    committed = true
                    schedule.committed(at: now, rows: withRows)
                }
            }
            checkpointIfDue()
            wait = schedule.nextWait(at: now, backlog: hasBacklog, committed: committed, wokenByRows: taken.wokenByRows,
                                     tookRows: tookRows)
        }
    }

    /// Rows, or the session's own row, wait to be written.
    private var hasBacklog: Bool { !unwritten.isEmpty || target.sessionID == nil }

    /// Writes everything unwritten, oldest first, in transactions of at most `rowsPerCommit`
    /// rows, halving them when the disk is full so that what still fits goes in; false when
    /// SQLite refuses, with the rows not yet committed kept for the next attempt. The session is
    /// closed only once the usual database's check has answered, and at most
    /// `maximumQueuedRows` rows wait for that answer in memory.
    private func flush(closing: StoreWriter.Closing? = nil) -> Bool {
        do {
            _ = try target.open()
            if let again = target.settleCheck(waiting: closing != nil || target.unverifiedFull) { movedToFallback(again) }
            let store = try target.open()
            var written = 0
            defer { unwritten.removeFirst(written) }
            var chunkSize = StoreWriter.rowsPerCommit
            repeat {
                let chunk = unwritten[written..<min(unwritten.count, written + chunkSize)]
                let isLast = written + chunk.count == unwritten.count
                let wall = SessionRecorder.wallMilliseconds()
                let known = target.sessionID
                do {
                    // The id is kept only once the transaction has committed (a failed commit rolls the row back).
                    target.sessionID = try store.write { db in
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
                target.committed(chunk)
            } while written < unwritten.count
            if failing {
                failing = false
                job.warn("runwalk: recording resumed: the store accepts writes again")
            }
            return true
        } catch let error as StoreError where error.isCorrupt && !target.onFallback {
            // Damage met mid-session: the rest goes to the fallback at the next tick.
            movedToFallback(target.moveToFallback(finding: StoreWriter.reason(error)))
            return false
        } catch {
            // A failed transaction is rolled back whole, so nothing half-written is left behind.
            failing = true
            schedule.refused(at: Date())
            if !failureReported {
                failureReported = true
                job.warn("runwalk: warning: cannot record to \(job.location.databasePath): \(StoreWriter.reason(error)); "
                         + "the workout goes on, unsaved data is kept in memory and retried")
            }
            return false
        }
    }

    /// The session went to the fallback database: `again` (rows the damaged file held) goes
    /// first, and the next write is tried at once.
    private func movedToFallback(_ again: [RecordedRow]) {
        if !again.isEmpty { unwritten = again + unwritten }
        schedule.retryAtOnce(Date())
    }

    /// Syncs what was committed to the disk (the WAL, then the database) every
    /// `checkpointIntervalSeconds` while there is something new: the power-loss bound. PASSIVE
    /// never waits for a reader; a failure is left for the next one (the rows are committed).
    private func checkpointIfDue() {
        guard let store = target.store, schedule.takeCheckpointTurn(at: Date()) else { return }
        if (try? store.checkpoint()) != nil { schedule.checkpointed() }
    }

    private func close(_ closing: StoreWriter.Closing) -> SessionRecorder.Outcome {
        // A damaged file met at the end switches to the fallback: one more try there.
        let usedFallback = target.onFallback
        if flush(closing: closing) || (!usedFallback && target.onFallback && flush(closing: closing)) {
            // The finished session reaches the disk before the command reports it saved.
            try? target.store?.checkpoint()
            sessionLock?.release()
            target.releaseStoreLock()
            return SessionRecorder.Outcome(sessionID: target.sessionID, rowsLost: 0)
        }
        // Keep what fits: close the session row alone (an update in place needs no new pages).
        var closed = false
        if let store = target.store, let sessionID = target.sessionID {
            let wall = SessionRecorder.wallMilliseconds()
            closed = (try? store.write { db in
                try closing.close(db, sessionID: sessionID, endedWallMs: wall)
            }) != nil
        }
        if closed { sessionLock?.release() } else { sessionLock?.release(removingFile: false) }
        target.releaseStoreLock()
        job.warn("runwalk: warning: recording incomplete: \(unwritten.count) rows (fixes, track points, cues, events) were not saved"
                 + (closed ? "; the session's summary was saved" : ""))
        let fixes = unwritten.compactMap { row -> Fix? in
            if case .fix(let update, _) = row { return update.raw }
            return nil
        }
        return SessionRecorder.Outcome(sessionID: target.sessionID, rowsLost: unwritten.count, unsavedFixes: fixes)
    }

    /// Inserts the session row and its planned phases; returns its id.
    private func insertSession(_ db: SQLiteConnection) throws -> Int64 {
        let session = job.session
        try db.execute("""
            INSERT INTO sessions (workout_spec, source, units, get_ready_s, recorded_wall_ms, state, owner_token)
            VALUES (?, ?, ?, ?, ?, 'recording', ?)
            """, [session.workout.spec, session.source, session.options.units.rawValue,
                  session.options.getReady.seconds, job.wallMilliseconds, (sessionLock == nil ? nil : job.token) as String?])
        let id = db.lastInsertedRowID
        for (index, phase) in session.workout.phases.enumerated() {
            try db.execute("""
                INSERT INTO phases (session_id, idx, kind, planned_duration_s, planned_distance_m) VALUES (?, ?, ?, ?, ?)
                """, [id, index, phase.kind.rawValue, phase.target.durationSeconds, phase.target.distanceMetres])
        }
        return id
    }
}
