import Dispatch
import Foundation
import RunWalkCore
import RunWalkGPS
import RunWalkRuntime

/// Replays a track through the one session loop for a benchmark, from the main thread (which
/// may wait: it is not one of the cooperative pool's threads).
enum BenchReplay {
    static func run(path: String, workout: Workout, options: SessionOptions = SessionOptions(),
                    onEvent: @escaping (SessionEvent) -> Void = { _ in }) throws -> SessionLoop.Result {
        let collector = EventCollector(onEvent)
        let loop = SessionLoop.replaying(workout, options: options)
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.result = await loop.replay(track: path, hooks: .init(onEvent: { collector.handle($0) }))
            done.signal()
        }
        done.wait()
        guard let result = box.result, result.started else { throw BenchError("\(path): no fixes") }
        return result
    }

    private final class Box: @unchecked Sendable { var result: SessionLoop.Result? }

    /// The loop calls its hooks one at a time, in order.
    private final class EventCollector: @unchecked Sendable {
        let body: (SessionEvent) -> Void
        init(_ body: @escaping (SessionEvent) -> Void) { self.body = body }
        func handle(_ event: SessionEvent) { body(event) }
    }
}
