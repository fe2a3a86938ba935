import Dispatch
import FoundationEssentials
import RunWalkCore
import RunWalkIO
import RunWalkRuntime
import RunWalkStore

/// What every front end (`replay`, `run`, the app) shares around the one session loop: the
/// recorder (opened at the session's first event, so a track that never starts a workout
/// records nothing), the voice, observers of every event (hands-free adapters), and waiting
/// for the loop from a synchronous caller.
public final class SessionHost: @unchecked Sendable {
    private let makeRecorder: (() -> SessionRecorder)?
    private let voice: VoiceOutput
    private let lock = Lock()
    private var openedRecorder: SessionRecorder?
    private var observers: [@Sendable (SessionEvent) -> Void] = []

    /// A host speaking through `voice` and recording through the recorder `recorder` makes (nil: not recorded).
    public init(voice: VoiceOutput, recorder: (() -> SessionRecorder)?) {
        self.voice = voice
        makeRecorder = recorder
    }

    /// The recorder, once the session produced its first event.
    public var recorder: SessionRecorder? { lock.withLock { openedRecorder } }

    /// Adds an observer of every session event, called after the recorder and the voice.
    public func observeEvents(_ observer: @escaping @Sendable (SessionEvent) -> Void) {
        lock.withLock { observers.append(observer) }
    }

    /// The hooks that record and speak every event; messages go to the user through `message`.
    public func hooks(message: @escaping @Sendable (String) -> Void) -> SessionLoop.Hooks {
        SessionLoop.Hooks(
            onEvent: { [self] event in
                let (recorder, observers) = opened()
                recorder?.record(event)
                voice.handleReportingFailure(event)
                for observer in observers { observer(event) }
            },
            onMessage: message,
            onEvents: { [self] events in
                let (recorder, observers) = opened()
                // One hand-over per step: the writer thread wakes once for a fix and its track point.
                recorder?.record(contentsOf: events)
                for event in events {
                    voice.handleReportingFailure(event)
                    for observer in observers { observer(event) }
                }
            })
    }

    /// The recorder (opened at the first event) and the observers.
    private func opened() -> (SessionRecorder?, [@Sendable (SessionEvent) -> Void]) {
        lock.withLock {
            if openedRecorder == nil, let makeRecorder { openedRecorder = makeRecorder() }
            return (openedRecorder, observers)
        }
    }

    /// Runs `body` (the session loop) to its end and returns its result. Called from a command's
    /// `run()` on the main thread, which is not one of the cooperative pool's threads.
    public static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        guard let value = box.value else { preconditionFailure("the session loop ended without a result") }
        return value
    }
}

/// Holds the loop's result for the waiting thread.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: T?
    var value: T? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
