import CAdwaita
import Foundation

/// Every widget is held as a `GtkWidget` pointer; `cast` hands it to functions that want a
/// subclass (a typed pointer for derivable classes, an opaque one for final classes).
typealias Widget = UnsafeMutablePointer<GtkWidget>

/// The same object as another GObject type (GTK checks types at run time; the app builds each widget itself).
func cast<T>(_ pointer: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}

/// The same object as an opaque pointer (final GTK classes import as `OpaquePointer`).
func cast(_ pointer: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer {
    OpaquePointer(pointer)
}

/// Holds a handler for the life of its signal connection (released by GLib's destroy notify).
private final class HandlerBox<Body>: @unchecked Sendable {
    let body: Body
    init(_ body: Body) { self.body = body }
}

private func retained<Body>(_ body: Body) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(HandlerBox(body)).toOpaque()
}

private func handler<Body>(_ data: UnsafeMutableRawPointer?) -> Body? {
    guard let data else { return nil }
    return Unmanaged<HandlerBox<Body>>.fromOpaque(data).takeUnretainedValue().body
}

private let releaseBox: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

typealias Action = @MainActor () -> Void

// Signal handlers run on the GLib main thread, which is the main actor's thread.
private let voidTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
    guard let body: Action = handler(data) else { return }
    MainActor.assumeIsolated { body() }
}

private let pointerTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, argument, data in
    guard let body: @MainActor (UnsafeMutableRawPointer?) -> Void = handler(data) else { return }
    nonisolated(unsafe) let argument = argument
    MainActor.assumeIsolated { body(argument) }
}

private let boolTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, data in
    guard let body: @MainActor () -> Bool = handler(data) else { return 0 }
    return MainActor.assumeIsolated { body() } ? 1 : 0
}

private let intTrampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, value, data in
    guard let body: @MainActor (Int32) -> Void = handler(data) else { return }
    MainActor.assumeIsolated { body(value) }
}

private let pointTrampoline: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, _, _, data in
    guard let body: Action = handler(data) else { return }
    MainActor.assumeIsolated { body() }
}

/// Signal connections with Swift closures.
enum Signal {
    /// A signal whose handler takes no arguments ("clicked", "changed", "activate", "cancel").
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ name: String, _ body: @escaping Action) -> UInt {
        rw_connect(instance, name, unsafeBitCast(voidTrampoline, to: GCallback.self), retained(body), releaseBox)
    }

    /// A signal with one pointer argument ("row-activated", "notify::…", AdwMessageDialog's "response").
    @discardableResult
    static func connectPointer(_ instance: UnsafeMutableRawPointer, _ name: String,
                               _ body: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> UInt {
        rw_connect(instance, name, unsafeBitCast(pointerTrampoline, to: GCallback.self), retained(body), releaseBox)
    }

    /// A signal whose handler returns a boolean ("close-request": true keeps the window open).
    @discardableResult
    static func connectBool(_ instance: UnsafeMutableRawPointer, _ name: String, _ body: @escaping @MainActor () -> Bool) -> UInt {
        rw_connect(instance, name, unsafeBitCast(boolTrampoline, to: GCallback.self), retained(body), releaseBox)
    }

    /// A signal with one integer argument (a native dialog's "response").
    @discardableResult
    static func connectInt(_ instance: UnsafeMutableRawPointer, _ name: String, _ body: @escaping @MainActor (Int32) -> Void) -> UInt {
        rw_connect(instance, name, unsafeBitCast(intTrampoline, to: GCallback.self), retained(body), releaseBox)
    }

    /// A signal with a point (x, y) the handler ignores (a long-press gesture's "pressed").
    @discardableResult
    static func connectPoint(_ instance: UnsafeMutableRawPointer, _ name: String, _ body: @escaping Action) -> UInt {
        rw_connect(instance, name, unsafeBitCast(pointTrampoline, to: GCallback.self), retained(body), releaseBox)
    }
}

/// Hands work from any thread to the GLib main thread (g_idle_add is thread-safe).
enum MainLoop {
    private static let idleTrampoline: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
        guard let data else { return 0 }
        let body = Unmanaged<HandlerBox<@Sendable @MainActor () -> Void>>.fromOpaque(data).takeRetainedValue().body
        MainActor.assumeIsolated { body() }
        return 0
    }

    /// Runs `body` on the main thread soon: at the default priority, ahead of GTK's redraws. At
    /// idle priority an animation that keeps the frame clock busy (a spinner, with software
    /// rendering) held it back for good: a strap scan's result never reached the settings page.
    static func post(_ body: @escaping @Sendable @MainActor () -> Void) {
        let data = Unmanaged.passRetained(HandlerBox(body)).toOpaque()
        _ = g_idle_add_full(G_PRIORITY_DEFAULT, idleTrampoline, data, nil)
    }

    private static let dispatchTrampoline: @convention(c) (Int32, GIOCondition, UnsafeMutableRawPointer?) -> gboolean = { fd, _, _ in
        // Read the eventfd, or the source stays ready and GLib spins (and GTK stops repainting).
        var counter: UInt64 = 0
        _ = read(fd, &counter, MemoryLayout<UInt64>.size)
        _dispatch_main_queue_callback_4CF(nil)
        return 1
    }

    /// Lets work sent to Swift's main queue (the main actor) run inside GLib's loop.
    static func drainDispatchMainQueue() {
        _ = g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, dispatchTrampoline, nil)
    }
}

extension String {
    /// Text with Pango markup characters escaped.
    var markupEscaped: String {
        guard let escaped = rw_markup_escape(self) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}
