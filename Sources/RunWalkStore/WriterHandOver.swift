import FoundationEssentials
import RunWalkRuntime

/// What the recording side, the writer thread and the store check's thread share: the queue of
/// rows, the finish request and its outcome, and the check's answer. Its state is private and
/// every method takes the lock, so nothing reaches it without the lock.
final class WriterHandOver: @unchecked Sendable {
    /// What the usual database's quick_check found.
    enum CheckAnswer: Sendable {
        case sound
        case damaged(String)
    }

    /// How long the writer waits before it takes the queue.
    enum Wait {
        /// Gathering rows for a commit due then (a full queue or a finish request ends it sooner).
        case until(Date)
        /// Idle: until rows come or the session ends, or until `wake` (a checkpoint due) if given.
        case idle(wake: Date?)
    }

    /// What the writer took: the rows queued, and the finish request if there is one.
    struct Taken {
        var rows: [RecordedRow]
        var finish: StoreWriter.Closing?
        /// An idle writer was woken by rows (not by a finish request or a checkpoint).
        var wokenByRows: Bool
    }

    private struct State {
        var queue: [RecordedRow] = []
        /// The writer sleeps with no deadline and waits to be signalled by `append`.
        var writerIdle = false
        var finishRequest: StoreWriter.Closing?
        /// The recording side waits for the writer to take the queue.
        var queueFull = false
        /// The most rows ever queued at once (tests check the bound with it).
        var peakQueued = 0
        var outcome: SessionRecorder.Outcome?
        /// The usual database's quick_check, once it has answered.
        var checkAnswer: CheckAnswer?
    }

    private let condition = Condition()
    /// Only ever read or changed with `condition`'s lock held (every method below takes it).
    private var state = State()
    private let maximumQueuedRows: Int

    init(maximumQueuedRows: Int) {
        self.maximumQueuedRows = maximumQueuedRows
    }

    // MARK: The recording side

    /// Queues the rows `produce` appends (made in place, under the lock); waits while
    /// `maximumQueuedRows` are queued, until the writer takes them.
    func append(_ produce: (inout [RecordedRow]) -> Void) {
        condition.lock()
        while state.queue.count >= maximumQueuedRows, state.finishRequest == nil, state.outcome == nil {
            // Wake the writer now rather than at its next tick, then wait for it to take the queue.
            state.queueFull = true
            condition.broadcast()
            condition.wait()
        }
        let before = state.queue.count
        produce(&state.queue)
        state.peakQueued = max(state.peakQueued, state.queue.count)
        // A writer gathering rows for its next commit is not woken: it commits at its deadline.
        let wake = state.writerIdle && state.queue.count > before
        condition.unlock()
        // Signalled after the unlock: woken while this thread still holds the lock, the writer
        // can block on it at once and need a second wake-up. Its waits re-check what they wait
        // for, so a signal that comes late is harmless.
        if wake { condition.signal() }
    }

    /// The most rows that were queued at once.
    var peakQueuedRows: Int {
        condition.withLock { state.peakQueued }
    }

    /// Asks the writer to close the session and waits for its outcome (at once if it has one).
    func finish(_ closing: StoreWriter.Closing) -> SessionRecorder.Outcome {
        condition.lock()
        defer { condition.unlock() }
        if let outcome = state.outcome { return outcome }
        state.finishRequest = closing
        condition.broadcast()
        while state.outcome == nil { condition.wait() }
        return state.outcome ?? SessionRecorder.Outcome(sessionID: nil, rowsLost: 0)
    }

    // MARK: The writer thread

    /// Waits as `wait` says, then takes the queue, putting `spare` (an empty array, left empty
    /// without storage) in its place: the queue's storage goes round three arrays (queue, the
    /// writer's unwritten rows, spare), so a replay does not grow (and fault in) one per batch.
    func take(after wait: Wait, swappingIn spare: inout [RecordedRow]) -> Taken {
        condition.lock()
        var wokenByRows = false
        switch wait {
        case .until(let due):
            // A full queue (a replay outrunning SQLite) is taken at once.
            while state.finishRequest == nil, !state.queueFull, condition.wait(seconds: max(0, due.timeIntervalSinceNow)) {}
        case .idle(let wake):
            state.writerIdle = true
            if let wake {
                while state.finishRequest == nil, state.queue.isEmpty, condition.wait(seconds: max(0, wake.timeIntervalSinceNow)) {}
            } else {
                while state.finishRequest == nil, state.queue.isEmpty { condition.wait() }
            }
            state.writerIdle = false
            wokenByRows = !state.queue.isEmpty
        }
        var rows: [RecordedRow] = []
        swap(&rows, &spare)
        swap(&rows, &state.queue)
        if state.queueFull {
            state.queueFull = false
            condition.broadcast()
        }
        let finish = state.finishRequest
        condition.unlock()
        return Taken(rows: rows, finish: finish, wokenByRows: wokenByRows)
    }

    /// Gives the recording its outcome and wakes whoever waits in `finish`.
    func settle(_ outcome: SessionRecorder.Outcome) {
        condition.withLock {
            state.outcome = outcome
            condition.broadcast()
        }
    }

    /// The check's answer; with `waiting`, waits for it.
    func checkAnswer(waiting: Bool) -> CheckAnswer? {
        condition.withLock {
            while waiting, state.checkAnswer == nil { condition.wait() }
            return state.checkAnswer
        }
    }

    // MARK: The check's thread

    /// Hands over the check's answer.
    func answerCheck(_ answer: CheckAnswer) {
        condition.withLock {
            state.checkAnswer = answer
            condition.broadcast()
        }
    }
}
