import RunWalkCore
import RunWalkRuntime

extension LocationSource {
    /// Starts `body` on a dedicated thread that feeds a stream; the thread sees `stop` once the
    /// consumer has gone.
    func threadedStream(name: String, _ body: @escaping @Sendable (AsyncStream<LocationEvent>.Continuation, StopFlag) -> Void)
        -> AsyncStream<LocationEvent> {
        let (stream, continuation) = AsyncStream<LocationEvent>.makeStream(bufferingPolicy: .unbounded)
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.set() }
        NamedThread.start(name: name) {
            body(continuation, stop)
            continuation.finish()
        }
        return stream
    }
}
