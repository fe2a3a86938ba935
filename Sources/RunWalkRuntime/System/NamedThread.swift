#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts threads of our own (what Foundation's `Thread` gave): a blocking loop (a clock, a
/// socket, a GPS device, a GLib main loop) must never occupy a thread of Swift's cooperative pool.
public enum NamedThread {
    /// Runs `body` on a new detached thread named `name` for the kernel (`top -H`,
    /// /proc/PID/task/*/comm; at most 15 bytes are kept). Returns false when no thread could be
    /// made (the system's thread limit); `body` then does not run.
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
            // The name is set from inside: it names the calling thread.
            KernelThreadName.set(start.name)
            start.body()
            return nil
        }, context)
        guard made == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// What the new thread runs, carried through pthread's `void *`.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
