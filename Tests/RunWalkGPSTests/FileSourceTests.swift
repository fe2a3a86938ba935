import Foundation
import RunWalkCore
import RunWalkGPS
import RunWalkRuntime
import Synchronization
import Testing

/// A track file's two paths to a consumer: the stream (`events()`) and the direct one
/// (`start(sink:)`, what the session loop uses) give the same events in the same order.
@Suite("NMEAFileSource")
struct FileSourceTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleTracks").path

    /// Every event the direct path hands out, until its final nil.
    final class Sink: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [LocationEvent] = []
        private var ended = false
        private var threads = Set<String>()
        private var waiting: CheckedContinuation<Void, Never>?

        func take(_ event: LocationEvent?) {
            let resume: CheckedContinuation<Void, Never>? = lock.withLock {
                threads.insert(Thread.isMainThread ? "main" : "\(pthread_self())")
                guard let event else {
                    ended = true
                    defer { waiting = nil }
                    return waiting
                }
                events.append(event)
                return nil
            }
            resume?.resume()
        }

        /// The events, once the source said it has ended.
        func all() async -> (events: [LocationEvent], threads: Int) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now: Bool = lock.withLock {
                    if ended { return true }
                    waiting = continuation
                    return false
                }
                if now { continuation.resume() }
            }
            return lock.withLock { (events, threads.count) }
        }
    }

    @Test("the direct path gives the stream's events, in order, from one thread, then nil",
          arguments: ["city-stopgo.nmea", "trail-10hz.nmea"])
    func directPathMatchesStream(track: String) async throws {
        let path = Self.samples + "/" + track
        try #require(FileManager.default.fileExists(atPath: path))
        var streamed: [LocationEvent] = []
        for await event in NMEAFileSource(path: path).events() { streamed.append(event) }
        let sink = Sink()
        let started = NMEAFileSource(path: path).start(sink: { sink.take($0) })
        let stop = try #require(started)
        let direct = await sink.all()
        stop()
        #expect(direct.events.count == streamed.count)
        #expect(direct.events == streamed)
        #expect(direct.threads == 1, "every event from the reading thread")
        let fixes = direct.events.filter { if case .fix = $0 { return true } else { return false } }.count
        #expect(fixes > 1000)
        #expect(direct.events.last == .ended)
    }

    @Test("stopping the direct path ends the reading early, with nil", .timeLimit(.minutes(1)))
    func stopEndsReading() async throws {
        let path = Self.samples + "/trail-10hz.nmea"
        let sink = Sink()
        let stopper = Mutex<(@Sendable () -> Void)?>(nil)
        let count = Mutex(0)
        let ready = DispatchSemaphore(value: 0)
        let started = NMEAFileSource(path: path).start(sink: { event in
            sink.take(event)
            let n = count.withLock { $0 += 1; return $0 }
            // The reading thread waits at the first event until the test holds the stop.
            if n == 1 { ready.wait() }
            // Asked to stop from inside the sink, as the loop does when the workout ends.
            if n == 100 { stopper.withLock { $0 }?() }
        })
        let stop = try #require(started)
        stopper.withLock { $0 = stop }
        ready.signal()
        let direct = await sink.all()
        #expect(direct.events.count < 200, "\(direct.events.count) events after a stop at the 100th")
    }
}
