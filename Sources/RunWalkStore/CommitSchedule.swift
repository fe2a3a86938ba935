import FoundationEssentials

/// When the writer commits, retries and checkpoints: the batching that bounds what a crash loses
/// (a row waits at most `commitIntervalSeconds`) and what a power loss loses (a checkpoint every
/// `checkpointIntervalSeconds` while there is something new), while each wake-up a handheld's
/// battery pays for is spared where it can be. The writer thread's own: no lock, no clock of its
/// own (the times come in).
struct CommitSchedule {
    let commitInterval: Double
    let retryInterval: Double
    let checkpointInterval: Double
    /// When the last commit went in.
    private(set) var lastCommit = Date.distantPast
    /// No write is tried before this (the disk refused the last one).
    private(set) var nextAttempt = Date.distantPast
    private(set) var lastCheckpoint: Date
    /// Rows were committed since the last checkpoint.
    private(set) var uncheckpointed = false

    init(_ settings: SessionRecorder.Settings, now: Date) {
        commitInterval = settings.commitIntervalSeconds
        retryInterval = settings.retryIntervalSeconds
        checkpointInterval = settings.checkpointIntervalSeconds
        lastCheckpoint = now
    }

    /// Rows that woke an idle writer soon after a commit: more are likely on their way, so they
    /// are gathered until the interval since that commit is over (they wait at most the interval).
    /// The commit's deadline, or nil to commit now.
    func gatheringDeadline(wokenByRows: Bool, at now: Date) -> Date? {
        let next = lastCommit.addingTimeInterval(commitInterval)
        return wokenByRows && now < next ? next : nil
    }

    /// Whether a write may be tried now (not while waiting to retry a refused one).
    func mayWrite(at now: Date) -> Bool { now >= nextAttempt }

    /// A commit went in at `now`; `rows`: it held rows (not only the session's row).
    mutating func committed(at now: Date, rows: Bool) {
        lastCommit = now
        if rows { uncheckpointed = true }
    }

    /// The disk refused a write: the next try waits for the retry interval.
    mutating func refused(at now: Date) {
        nextAttempt = now.addingTimeInterval(retryInterval)
    }

    /// The session moved to another database: the next try goes at once.
    mutating func retryAtOnce(_ now: Date) {
        nextAttempt = now
    }

    /// When the next checkpoint is due (nil: nothing new to checkpoint).
    var checkpointDue: Date? {
        uncheckpointed ? lastCheckpoint.addingTimeInterval(checkpointInterval) : nil
    }

    /// Whether a checkpoint is due at `now`; when it is, its time is taken (a failed one is left
    /// for the next turn: the rows are committed).
    mutating func takeCheckpointTurn(at now: Date) -> Bool {
        guard uncheckpointed, now.timeIntervalSince(lastCheckpoint) >= checkpointInterval - 0.01 else { return false }
        lastCheckpoint = now
        return true
    }

    /// The checkpoint went through.
    mutating func checkpointed() {
        uncheckpointed = false
    }

    /// How long the writer waits after a tick at `now`. `backlog`: rows (or the session's row)
    /// are still unwritten; `committed`: this tick committed; `tookRows`: it took rows from the queue.
    func nextWait(at now: Date, backlog: Bool, committed: Bool, wokenByRows: Bool, tookRows: Bool) -> WriterHandOver.Wait {
        if backlog {
            // The disk refused: retry at the retry interval (or at once after a fallback switch).
            return .until(max(nextAttempt, now.addingTimeInterval(commitInterval)))
        }
        if committed && !wokenByRows && tookRows {
            // Rows keep coming (they arrived while the last interval ran): keep the pace.
            return .until(now.addingTimeInterval(commitInterval))
        }
        // Idle: until rows come, the session ends, or a checkpoint is due.
        return .idle(wake: checkpointDue)
    }
}
