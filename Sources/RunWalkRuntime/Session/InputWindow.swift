import Synchronization

/// Back-pressure between the session loop and the task that reads its source: the reader
/// waits while `size` location events are queued and not yet handled. Without it a track file,
/// read far faster than a session consumes it, would be queued whole in the loop's input
/// stream (180,000 fixes of a 5-hour run at 10 Hz); live, a source never gets that far ahead.
/// One task acquires (the loop's reader), one releases (the loop): one waiter at most.
final class InputWindow: Sendable {
    private struct State {
        var free: Int
        var waiting: CheckedContinuation<Void, Never>?
        var closed = false
    }

    private let state: Mutex<State>
    /// Free places at which a waiting reader is woken: half the window, so that it is woken
    /// once per half window, not once per event (each wake-up is a thread hand-off).
    private let wakeAt: Int

    /// A window of `size` events.
    init(size: Int) {
        state = Mutex(State(free: size))
        wakeAt = max(1, size / 2)
    }

    /// Takes a place for one event, waiting while the window is full (not once it is closed).
    func acquire() async {
        let taken = state.withLock { state in
            if state.closed { return true }
            if state.free > 0 {
                state.free -= 1
                return true
            }
            return false
        }
        if taken { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.closed { return true }
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// One queued event was handled: its place is free again.
    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.free += 1
            guard let waiter = state.waiting, state.free >= wakeAt else { return nil }
            state.waiting = nil
            state.free -= 1
            return waiter
        }
        waiter?.resume()
    }

    /// The loop has ended: nothing waits any more.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.closed = true
            defer { state.waiting = nil }
            return state.waiting
        }
        waiter?.resume()
    }
}

extension SessionLoop {
    /// Source events the loop's reader may hold that the loop has not handled yet: small next to
    /// a long track (about 0.3 MB of fixes), large enough that the reader is woken once per
    /// 512 events rather than per event (woken per event, a replay spent about a third more
    /// time in the kernel, handing the reader and the file's thread back and forth).
    static let readAhead = 1024
}
