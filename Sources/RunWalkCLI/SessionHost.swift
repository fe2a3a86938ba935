import Dispatch
import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkRuntime
import RunWalkStore

/// What `replay` and `run` share around the one session loop: the recorder (opened at the
/// session's first event, so a track that never starts a workout records nothing), the voice,
/// and waiting for the loop from the command's synchronous `run()`.
final class SessionHost: @unchecked Sendable {
    private let makeRecorder: (() -> SessionRecorder)?
    private let voice: VoiceOutput
    private let lock = NSLock()
    private var openedRecorder: SessionRecorder?

    init(voice: VoiceOutput, recorder: (() -> SessionRecorder)?) {
        self.voice = voice
        makeRecorder = recorder
    }

    /// The recorder, once the session produced its first event.
    var recorder: SessionRecorder? { lock.withLock { openedRecorder } }

    /// The hooks that record and speak every event; messages go to standard error through `message`.
    func hooks(message: @escaping @Sendable (String) -> Void) -> SessionLoop.Hooks {
        SessionLoop.Hooks(
            onEvent: { [self] event in
                let recorder: SessionRecorder? = lock.withLock {
                    if openedRecorder == nil, let makeRecorder { openedRecorder = makeRecorder() }
                    return openedRecorder
                }
                recorder?.record(event)
                voice.handleReportingFailure(event)
            },
            onMessage: message,
            onEvents: { [self] events in
                let recorder: SessionRecorder? = lock.withLock {
                    if openedRecorder == nil, let makeRecorder { openedRecorder = makeRecorder() }
                    return openedRecorder
                }
                // One hand-over per step: the writer thread wakes once for a fix and its track point.
                recorder?.record(contentsOf: events)
                events.forEach(voice.handleReportingFailure)
            })
    }

    /// Runs `body` (the session loop) to its end and returns its result. Called from a command's
    /// `run()` on the main thread, which is not one of the cooperative pool's threads.
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
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
    private let lock = NSLock()
    private var stored: T?
    var value: T? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
