import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wakes the session loop at the next deadline it asked for (loop time, scaled): one pending
/// deadline at a time, replaced only when it changes (no periodic polling). Each firing carries
/// the generation of the schedule it belongs to, so a tick from a replaced schedule is told apart.
protocol LoopTimer: Sendable {
    /// Fire `tick(generation)` at loop time `target`.
    func schedule(_ target: Duration)
    /// Whether a tick is from the latest schedule (an older one was replaced); consumes it.
    func isCurrent(_ generation: Int) -> Bool
    /// No more ticks.
    func cancel()
}

/// How much earlier or later than asked a pending deadline may be and still be kept: the same
/// phase-second deadline recomputed from another `now` differs in its last bits, and replacing
/// the timer for each input (ten fixes a second) would cost wake-ups for nothing.
enum LoopTimerTolerance {
    static let early: Duration = .microseconds(1)
    static let late: Duration = .milliseconds(2)

    /// Whether `current` may stand in for `target`.
    static func keeps(_ current: Duration, for target: Duration) -> Bool {
        current >= target - early && current <= target + late
    }
}

/// The loop's timer: one long-lived thread that sleeps in `poll(2)` until the deadline (or until
/// an earlier one is asked for) and then runs the tick itself. A timer per deadline on Swift's
/// clock costs three to five wake-ups a tick (a new task, libdispatch's timer thread, a pool
/// thread, the loop's resumption); this thread wakes once. The same thread and code under test:
/// a `ManualClock` rings the thread's alarm when it is advanced, where real time ends the sleep.
final class ThreadTimer<C: LoopClock>: LoopTimer, @unchecked Sendable {
    private struct State {
        var generation = 0
        /// The pending deadline (loop time), nil when none or once it fired.
        var target: Duration?
        var stopped = false
        /// The timer's own thread, once it runs (a schedule from inside a tick rings no bell).
        var thread: pthread_t?
    }

    private let clock: C
    private let start: C.Instant
    private let scale: Double
    private let lock = Lock()
    /// Under `lock`.
    private var state = State()
    /// A pipe written to when the deadline moves earlier or the timer stops, so the sleeping
    /// thread looks again (a later deadline needs no wake-up: the thread finds it when it wakes).
    private let bell: (read: Int32, write: Int32)
    private let tick: @Sendable (Int) -> Void

    /// A timer on `clock` whose loop time is zero at `start` and runs `scale` times real time;
    /// `tick` is called on the timer's thread.
    init(clock: C, start: C.Instant, scale: Double, tick: @escaping @Sendable (Int) -> Void) {
        self.clock = clock
        self.start = start
        self.scale = scale
        self.tick = tick
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC); _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        }
        bell = (fds[0], fds[1])
        // The thread holds the timer until `cancel()` ends it.
        NamedThread.start(name: "runwalk-clock") { [self] in
            let me = pthread_self()
            lock.withLock { state.thread = me }
            run()
        }
    }

    func schedule(_ target: Duration) {
        lock.withLock {
            guard !state.stopped else { return }
            if let current = state.target, LoopTimerTolerance.keeps(current, for: target) { return }
            let earlier = state.target.map { target < $0 } ?? true
            state.generation += 1
            state.target = target
            let onTimerThread = state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            if earlier && !onTimerThread { ringBell() }
        }
    }

    func isCurrent(_ generation: Int) -> Bool {
        lock.withLock { state.generation == generation }
    }

    func cancel() {
        lock.withLock {
            guard !state.stopped else { return }
            state.stopped = true
            ringBell()
        }
    }

    /// The clock's alarm: the clock was moved to the deadline (a test's `advance`).
    private func alarmRang() {
        lock.withLock {
            if !state.stopped { ringBell() }
        }
    }

    /// Wakes the thread; called under the state lock, so the pipe is never written once the
    /// thread has closed it (a closed descriptor's number may already be another file's).
    private func ringBell() {
        var byte: UInt8 = 1
        _ = write(bell.write, &byte, 1)
    }

    /// The thread: sleep until the pending deadline, fire it, repeat until cancelled.
    private func run() {
        let owner = ObjectIdentifier(self)
        defer {
            clock.setAlarm(nil, owner: owner) {}
            lock.withLock {
                close(bell.read)
                close(bell.write)
            }
        }
        while true {
            let (stopped, pending) = lock.withLock { (state.stopped, state.target) }
            if stopped { return }
            var timeout: Int32 = -1
            var alarm: C.Instant?
            if let pending {
                let due = start.advanced(by: scale == 1 ? pending : pending / scale)
                if clock.now.duration(to: due) <= .zero {
                    let generation: Int? = lock.withLock {
                        // Fire only the deadline still pending (another may have replaced it meanwhile).
                        guard state.target == pending, !state.stopped else { return nil }
                        state.target = nil
                        return state.generation
                    }
                    if let generation { tick(generation) }
                    continue
                }
                alarm = due
                if let left = clock.realTimeUntil(due) {
                    // poll(2) counts in milliseconds: rounded up, so the tick is never early.
                    let milliseconds = (Double(left.components.seconds) * 1000 + Double(left.components.attoseconds) / 1e15).rounded(.up)
                    timeout = Int32(min(max(1, milliseconds), Double(Int32.max)))
                }
            }
            // Set before the sleep: an alarm whose deadline has come meanwhile rings at once.
            clock.setAlarm(alarm, owner: owner) { [weak self] in self?.alarmRang() }
            var fds = pollfd(fd: bell.read, events: Int16(POLLIN), revents: 0)
            if poll(&fds, 1, timeout) > 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                _ = read(bell.read, &drained, drained.count)
            }
        }
    }
}
