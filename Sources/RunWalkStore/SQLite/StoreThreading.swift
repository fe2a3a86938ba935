#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import RunWalkRuntime

/// A mutex with a condition variable (pthreads): the recorder's hand-over between the
/// recording thread and the writer thread, and the pool's lock. Foundation's `NSCondition` and
/// `Thread` live in full Foundation, which the store does not load.
final class StoreCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits (holding the lock) until signalled.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits (holding the lock) until signalled or `deadline`; false once the deadline has passed.
    /// The condition uses the wall clock (pthread's default), as the writer's deadlines are dates.
    func wait(until deadline: Date) -> Bool {
        let seconds = deadline.timeIntervalSince1970
        guard seconds.isFinite else { wait(); return true }
        let whole = seconds.rounded(.down)
        var time = timespec(tv_sec: Int(whole), tv_nsec: Int(min(999_999_999, (seconds - whole) * 1e9)))
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }

    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts detached threads with a kernel name (the recorder's writer).
enum StoreThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Runs `body` on a new thread named `name` (15 bytes at most reach the kernel); false when
    /// the thread could not be made.
    @discardableResult
    static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body {
            KernelThreadName.set(name)
            body()
        })
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
            body.run()
            return nil
        }, box.toOpaque())
        guard made == 0 else {
            box.release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
