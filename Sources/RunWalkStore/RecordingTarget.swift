#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import RunWalkRuntime
import RunWalkCore
import RunWalkIO

/// The database the session is recorded into, the writer thread's own: the usual one, or once
/// that is found damaged, a fallback beside it; the session's row there; and, while the usual
/// file's quick_check runs, the rows committed there meanwhile (written again to the fallback if
/// the check finds damage).
struct RecordingTarget {
    private let job: StoreWriter.Job
    private let handOver: WriterHandOver
    /// The store open now (nil before the first write, and between a damage and the fallback).
    private(set) var store: RunWalkStore?
    /// The session's row in `store`, once a transaction inserting it has committed.
    var sessionID: Int64?
    /// Held shared while the session records: `recover --salvage` waits for it.
    private var storeLock: StoreLock?
    /// Set once the usual database was found damaged.
    private(set) var fallback: StoreLocation?
    /// The usual database's check is running (or its answer not yet acted on): every row
    /// committed there meanwhile is also held in `unverified`.
    private(set) var checkPending = false
    /// Rows committed to the usual database before its check answered.
    private var unverified: [RecordedRow] = []

    init(job: StoreWriter.Job, handOver: WriterHandOver) {
        self.job = job
        self.handOver = handOver
    }

    /// Whether the session has moved to a fallback database.
    var onFallback: Bool { fallback != nil }

    /// Whether `maximumQueuedRows` rows wait in memory for the check's answer.
    var unverifiedFull: Bool { unverified.count >= job.settings.maximumQueuedRows }

    /// Rows just committed to `store`: held while its check has not answered.
    mutating func committed(_ rows: ArraySlice<RecordedRow>) {
        if checkPending { unverified += rows }
    }

    /// Opens the store. A damaged database (quick_check not `ok`) does not keep the session: it
    /// goes to a fallback database beside it, named in one warning.
    mutating func open() throws -> RunWalkStore {
        if let store { return store }
        let location = job.location
        if storeLock == nil {
            storeLock = StoreLock(location: location, exclusive: false)
            // A salvage holds it exclusively: the rows wait in memory and are retried. (A folder
            // that cannot be written has no lock file: opening the store says why.)
            if storeLock == nil, access(location.directory, W_OK) == 0 {
                throw StoreError.beingSalvaged(path: location.databasePath)
            }
        }
        if fallback == nil {
            do {
                let opened = try RunWalkStore(location: location, options: job.recorderOptions)
                store = opened
                startCheck(of: opened)
                return opened
            } catch let error as StoreError where error.isCorrupt {
                return try openFallback(finding: StoreWriter.reason(error))
            }
        }
        return try openFallback(finding: nil)
    }

    /// Runs quick_check of the usual database on a thread of its own, on a reader. It reads every
    /// page: about a second for a 347 MB store from the page cache on the 2-core machine, more
    /// from a phone's eMMC. The recording commits as usual meanwhile, so a crash then still loses
    /// at most one commit interval; only a replay that outruns the check by `maximumQueuedRows`
    /// rows waits for it.
    private mutating func startCheck(of opened: RunWalkStore) {
        checkPending = true
        let check = job.settings.storeCheck
        let handOver = handOver
        let body: @Sendable () -> Void = {
            let answer: WriterHandOver.CheckAnswer
            do {
                let found = try check(opened)
                answer = found == "ok" ? .sound : .damaged(found)
            } catch let error as StoreError where error.isCorrupt {
                answer = .damaged(StoreWriter.reason(error))
            } catch {
                // Not a finding about the file (out of memory, say): the recording stays there.
                answer = .sound
            }
            opened.closeIdleReaders()
            handOver.answerCheck(answer)
        }
        if !NamedThread.start(name: "runwalk-check", body) { body() }
    }

    /// Acts on the check's answer, once there is one (waited for when `waiting`): rows held for
    /// it are let go when the file is sound; when it is damaged, the session moves to the
    /// fallback. Returns the rows to write again there (nil: the session did not move).
    mutating func settleCheck(waiting: Bool) -> [RecordedRow]? {
        guard checkPending else { return nil }
        switch handOver.checkAnswer(waiting: waiting) {
        case nil:
            return nil
        case .sound:
            checkPending = false
            unverified = []
            return nil
        case .damaged(let finding):
            return moveToFallback(finding: finding)
        }
    }

    /// Sends the rest of the session to the fallback database; returns the rows to write again
    /// there. While the usual file's check had not answered, every row committed there is still
    /// held: they go to the fallback too, and the session is deleted from the damaged file (if the
    /// damage lets it). Once the file was found sound, what was committed before the damage stays
    /// there, for `recover --salvage`.
    mutating func moveToFallback(finding: String) -> [RecordedRow] {
        var again: [RecordedRow] = []
        if checkPending {
            if let store, let sessionID {
                // Foreign keys cascade to the session's rows.
                _ = try? store.write { db in try db.execute("DELETE FROM sessions WHERE id = ?", [sessionID]) }
            }
            again = unverified
        }
        checkPending = false
        unverified = []
        store = nil
        _ = try? openFallback(finding: finding)
        return again
    }

    /// The database the session goes to when the usual one is damaged: `fallback-MS/runwalk.sqlite`
    /// in the data folder (owner-only like it).
    private mutating func openFallback(finding: String?) throws -> RunWalkStore {
        let location = job.location
        let target = fallback ?? StoreLocation(directory: location.directory + "/fallback-\(job.wallMilliseconds)")
        if fallback == nil, let finding {
            job.warn("runwalk: warning: \(UserText.path(location.databasePath)) is damaged (quick_check: "
                     + "\(UserText.printable(finding.split(separator: "\n").first ?? "", limit: 120))); this session is recorded in "
                     + "\(UserText.path(target.databasePath)) instead; `runwalk recover --salvage` keeps what the damaged file still holds")
        }
        fallback = target
        sessionID = nil
        let opened = try RunWalkStore(location: target, options: job.recorderOptions)
        store = opened
        return opened
    }

    /// Lets `recover --salvage` in again (the session is over).
    mutating func releaseStoreLock() {
        storeLock?.release()
    }
}

@available(*, unavailable, message: "the writer thread's own")
extension RecordingTarget: Sendable {}
