import FoundationEssentials
import RunWalkCore

/// The session loop's state and its one step: inputs (source events, commands, timer ticks)
/// are handled one at a time under a lock, on whichever thread brings them, so the driver is
/// only ever touched by one step at a time and in the order the inputs took the lock.
///
/// Hooks and status observers are called inside the step (as before, on the loop's side):
/// they must return quickly and must not call back into the loop synchronously.
final class LoopSteps: @unchecked Sendable {
    enum Input: Sendable {
        case location(LocationEvent)
        case sourceFinished
        case command(SessionCommand)
        case tick(Int)
        case heartRate(HeartRateInput)
    }

    private let lock = Lock()
    private var driver: SessionDriver
    private let hooks: SessionLoop.Hooks
    private let control: SessionControl
    private let readsSourceToEnd: Bool
    private let now: @Sendable () -> Duration
    /// The live clock's timer (nil in track mode); set before the first step.
    var timer: (any LoopTimer)?
    /// What was last published, to publish again only on a change or a new second.
    private var lastPublished: PublishKey?
    /// The workout has ended but the track is still read for its warnings.
    private var draining = false
    /// The source started on its direct path, once `attach` gave it (nil on the stream path).
    private var source: SourceHandle?
    private var done = false
    private var waiter: CheckedContinuation<Void, Never>?

    init(driver: SessionDriver, hooks: SessionLoop.Hooks, control: SessionControl, readsSourceToEnd: Bool,
         now: @escaping @Sendable () -> Duration) {
        self.driver = driver
        self.hooks = hooks
        self.control = control
        self.readsSourceToEnd = readsSourceToEnd
        self.now = now
    }

    /// The loop begins (before any source or command is started).
    func begin(utc: UTCTime?) {
        lock.withLock {
            let began = now()
            deliver(driver.begin(now: began, utc: utc), at: began)
            schedule(at: began)
        }
    }

    /// The source was started on its direct path (its first events may have come already): a
    /// loop already draining asks it for its rest now.
    func attach(_ handle: SourceHandle) {
        let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
            source = handle
            guard draining, !done, !handle.drain() else { return nil }
            return finish()
        }
        waiter?.resume()
    }

    /// Whether the loop has finished (nothing more is handled).
    var isDone: Bool { lock.withLock { done } }

    /// The driver as the loop left it.
    var finalDriver: SessionDriver { lock.withLock { driver } }

    /// Handles one input.
    func handle(_ input: Input) {
        let waiter = lock.withLock { step(input) }
        // Resumed outside the lock: the loop's caller goes on at once.
        waiter?.resume()
    }

    /// One input under the lock; returns the waiter to resume when it finished the loop.
    private func step(_ input: Input) -> CheckedContinuation<Void, Never>? {
        guard !done else { return nil }
        if draining {
            // The workout ended before the track did: the rest of the file is still read for
            // what it has to say (a reader names what it skipped only once it has seen it).
            // A stop ends that at once (the session is over already; only warnings are left).
            switch input {
            case .location(.warning(let text)): hooks.onMessage(text)
            case .sourceFinished, .command(.stop): return finish()
            default: break
            }
            return nil
        }
        let at = now()
        switch input {
        case .location(let event): deliver(driver.handle(event, now: at), at: at)
        case .sourceFinished: deliver(driver.handle(.ended, now: at), at: at)
        case .command(let command): deliver(driver.command(command, now: at), at: at)
        case .heartRate(let input): deliver(driver.heartRate(input, now: at), at: at)
        case .tick(let generation):
            guard timer?.isCurrent(generation) ?? false else { return nil }
            deliver(driver.tick(now: at), at: at)
        }
        if driver.isFinished {
            if readsSourceToEnd, !driver.sourceEnded, !driver.stopRequested {
                // The rest is read unpaced; a source that cannot hand it over (a pipe) ends the
                // loop now. Before `attach`, it is asked there.
                if let source, !source.drain() { return finish() }
                draining = true
                return nil
            }
            return finish()
        }
        schedule(at: at)
        return nil
    }

    /// Asks the timer for the driver's next deadline: live, at least once a second; on a paced
    /// track's clock only for a predicted split (a tick that finds none pending does nothing).
    private func schedule(at now: Duration) {
        guard let timer else { return }
        switch driver.settings.clock {
        case .session: timer.schedule(driver.nextDeadline(now: now) ?? now + .seconds(1))
        case .track: if let next = driver.nextDeadline(now: now) { timer.schedule(next) }
        }
    }

    /// Marks the loop done; returns its waiter, if it waits already.
    private func finish() -> CheckedContinuation<Void, Never>? {
        done = true
        defer { waiter = nil }
        return waiter
    }

    /// Returns once the loop is done.
    func waitUntilDone() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if done { return true }
                waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// The task running the loop was cancelled: it ends where it is.
    func abandon() {
        let waiter = lock.withLock { done ? nil : finish() }
        waiter?.resume()
    }

    // MARK: Delivering (under the lock)

    /// What decides whether a status is published: every change of stage, phase, pause or GPS,
    /// and every second of the session.
    private struct PublishKey: Equatable {
        var second: Int
        var stage: SessionStatus.Stage
        var phase: Int?
        var paused: Bool
        var gps: SessionStatus.GPS.State
    }

    private func deliver(_ output: SessionDriver.Output, at time: Duration) {
        output.messages.forEach(hooks.onMessage)
        if let batch = hooks.onEvents {
            if !output.events.isEmpty { batch(output.events) }
        } else {
            output.events.forEach(hooks.onEvent)
        }
        // The key is read off the driver without building the status: the status (a few dozen
        // fields) is built only when it is published, about once a second, not for every fix.
        let key = publishKey()
        // A fix's own events (its telemetry and track point) are no change a front end must see
        // at once: with them every fix was published (ten statuses a second at 10 Hz, each one
        // built, and a hop to every observer's thread); the next second publishes them.
        let changed = output.events.contains { event in
            switch event {
            case .telemetry, .trackPoint: return false
            default: return true
            }
        }
        if changed || lastPublished != key || !output.messages.isEmpty {
            lastPublished = key
            control.publish(driver.status(at: time))
        }
    }

    /// The same values `status(at:)` would show for stage, phase, pause and GPS.
    private func publishKey() -> PublishKey {
        let stage = driver.stage
        let engine = driver.runner.engine
        let active = driver.started && (engine.state == .active || engine.state == .paused)
        return PublishKey(second: Int(driver.loopNow.seconds.rounded(.down)), stage: stage,
                          phase: active ? engine.phaseIndex : nil,
                          paused: driver.started && engine.state == .paused, gps: driver.gpsState)
    }
}
