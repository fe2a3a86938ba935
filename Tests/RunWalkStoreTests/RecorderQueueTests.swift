import Foundation
import Testing
@testable import RunWalkStore
import RunWalkCore
import RunWalkRuntime

private final class RecorderBox: @unchecked Sendable { var recorder: SessionRecorder? }

@Suite("SessionRecorder queue bound")
struct RecorderQueueTests {
    @Test("a recorder whose queue is full waits for the writer and loses nothing")
    func boundedQueue() async throws {
        let folder = try TemporaryStoreFolder()
        var settings = SessionRecorder.Settings()
        settings.maximumQueuedRows = 16
        let recorded = RecorderBox()
        let (result, events, outcome, _) = try await Samples.recordDemo(into: folder.location, settings: settings,
                                                                       opened: { recorded.recorder = $0 })
        #expect(outcome.rowsLost == 0)
        // A replay makes rows far faster than the writer's quarter-second ticks take them: without
        // the bound the whole demo (about 500 rows) queues at once.
        let peak = try #require(recorded.recorder?.peakQueuedRows)
        #expect(peak <= 16 + 2, "\(peak) rows were queued at once")
        let store = try RunWalkStore(location: folder.location)
        let fixes = try store.read { db in try db.value(Int.self, "SELECT COUNT(*) FROM fixes") } ?? 0
        let telemetry = events.filter { if case .telemetry = $0 { return true } else { return false } }.count
        #expect(fixes == telemetry)
        #expect(fixes == result.summary.fixes.epochs)
    }
}
