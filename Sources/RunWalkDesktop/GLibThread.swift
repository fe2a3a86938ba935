import CGio
import Dispatch
import RunWalkRuntime

/// A GLib main loop on a thread of its own, on a private `GMainContext`.
///
/// Every GDBus object here (connections' signal subscriptions, exported objects, name
/// ownership) delivers its callbacks to the thread-default context it was set up on; running
/// our own context on our own thread means this works the same in the CLI (which runs no GLib
/// loop) and inside a GTK app (whose default context we must not block or depend on).
final class GLibThread: @unchecked Sendable {
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Whether the loop runs (until `stop()`).
    private var running = false

    init(name: String) {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let glib = GLibPointers(context: context, loop: loop)
        running = NamedThread.start(name: name) { [glib, started, finished] in
            let (context, loop) = (glib.context, glib.loop)
            g_main_context_push_thread_default(context)
            started.signal()
            g_main_loop_run(loop)
            // Drain what was queued before quitting (emitted signals, replies), then leave.
            while g_main_context_iteration(context, 0) != 0 {}
            g_main_context_pop_thread_default(context)
            finished.signal()
        }
        if running { started.wait() }
    }

    /// Runs `body` on the loop's thread, later.
    func async(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(CallBox(body)).toOpaque()
        g_main_context_invoke_full(context, 0, { data in
            guard let data else { return 0 }
            Unmanaged<CallBox>.fromOpaque(data).takeRetainedValue().body()
            return 0 // G_SOURCE_REMOVE
        }, box, nil)
    }

    /// Runs `body` on the loop's thread and waits for its result.
    func sync<T>(_ body: @escaping () -> T) -> T {
        if isCurrent { return body() }
        let done = DispatchSemaphore(value: 0)
        let result = UncheckedBox<T>()
        let call = UncheckedCall { result.value = body(); done.signal() }
        async { call.run() }
        done.wait()
        guard let value = result.value else { preconditionFailure("GLibThread.sync: the body did not run") }
        return value
    }

    /// Whether the caller runs on the loop's thread.
    var isCurrent: Bool { g_main_context_is_owner(context) != 0 }

    /// Quits the loop and waits for the thread to end; idempotent.
    func stop() {
        guard running else { return }
        running = false
        g_main_loop_quit(loop)
        g_main_context_wakeup(context)
        // From a callback on the loop itself the loop ends once the callback returns.
        if !isCurrent { finished.wait() }
    }

    deinit {
        stop()
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }
}

/// The context and loop, handed to the thread that owns them from then on.
private struct GLibPointers: @unchecked Sendable {
    let context: OpaquePointer
    let loop: OpaquePointer
}

/// A closure carried through GLib's `gpointer`.
private final class CallBox {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Carries a non-Sendable closure to the loop thread; `sync` waits for it, so it never runs concurrently.
private final class UncheckedCall: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// The result of a `sync` call, written on the loop thread before the caller reads it.
private final class UncheckedBox<T>: @unchecked Sendable {
    var value: T?
}
