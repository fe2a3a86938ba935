import Foundation
import GRDB
import Testing
@testable import RunWalkStore
import RunWalkCore
import RunWalkRuntime

@Suite("SessionRecorder queue bound")
struct RecorderQueueTests {
    @Test("a recorder whose queue is full waits for the writer and loses nothing")
    func boundedQueue() async throws {
        let folder = try TemporaryStoreFolder()
        var settings = SessionRecorder.Settings()
        settings.maximumQueuedRows = 16
        let (result, events, outcome, _) = try await Samples.recordDemo(into: folder.location, settings: settings)
        #expect(outcome.rowsLost == 0)
        let store = try RunWalkStore(location: folder.location)
        let fixes = try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fixes") } ?? 0
        let telemetry = events.filter { if case .telemetry = $0 { return true } else { return false } }.count
        #expect(fixes == telemetry)
        #expect(fixes == result.summary.fixes.epochs)
    }
}
