#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock around state shared between threads (what Foundation's `NSLock` gave).
///
/// A class over a heap-allocated `pthread_mutex_t`: a mutex must not move in memory once used,
/// and `lock()`/`unlock()` pairs that span calls (not only a closure) must keep working, which
/// `Synchronization.Mutex` does not offer.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// An unlocked lock.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Waits for the lock and takes it.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Gives the lock back.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// For `Condition`, which waits on this mutex.
    fileprivate var pointer: UnsafeMutablePointer<pthread_mutex_t> { mutex }
}

/// A lock with a condition to wait on (what Foundation's `NSCondition` gave): hold the lock
/// (`lock()`), look at the state, `wait(seconds:)` until another thread changes it and `signal()`s.
public final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A condition whose timed waits run on the monotonic clock (a wall-clock step neither
    /// shortens nor stretches them).
    public init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
    }

    /// Takes the lock.
    public func lock() { mutex.lock() }

    /// Gives the lock back.
    public func unlock() { mutex.unlock() }

    /// With the lock held: gives it up until signalled or `seconds` have passed, then takes it
    /// again. Returns false on the timeout (a wake-up may also be spurious: look at the state).
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let whole = seconds.rounded(.down)
        var nanoseconds = Int(deadline.tv_nsec) + Int((seconds - whole) * 1e9)
        var extraSeconds = Int(whole)
        if nanoseconds >= 1_000_000_000 { nanoseconds -= 1_000_000_000; extraSeconds += 1 }
        deadline.tv_sec += extraSeconds
        deadline.tv_nsec = nanoseconds
        return pthread_cond_timedwait(condition, mutex.pointer, &deadline) == 0
    }

    /// With the lock held: gives it up until signalled, then takes it again (a wake-up may be
    /// spurious: look at the state).
    public func wait() { pthread_cond_wait(condition, mutex.pointer) }

    /// Runs `body` holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try mutex.withLock(body)
    }

    /// Wakes one waiting thread.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
