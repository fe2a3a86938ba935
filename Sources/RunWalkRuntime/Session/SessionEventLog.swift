import FoundationEssentials
import RunWalkCore

/// Keeps every event of a session, in order (tests, benchmarks, front ends that replay them).
public final class SessionEventLog: @unchecked Sendable {
    private let lock = Lock()
    private var stored: [SessionEvent] = []
    private let also: @Sendable (SessionEvent) -> Void

    /// `also` sees each event as it is kept.
    public init(also: @escaping @Sendable (SessionEvent) -> Void = { _ in }) {
        self.also = also
    }

    /// The events so far.
    public var events: [SessionEvent] { lock.withLock { stored } }

    /// Hooks that keep every event (and drop messages).
    public var hooks: SessionLoop.Hooks {
        SessionLoop.Hooks(onEvent: { [self] event in
            lock.withLock { stored.append(event) }
            also(event)
        })
    }
}
