import Foundation
import Testing
@testable import RunWalkStore
import RunWalkCore
import RunWalkRuntime

@Suite("SummaryRebuilder")
struct SummaryRebuilderTests {
    @Test("the rebuilt summary's moving time and totals are the live ones (one builder, one counter)")
    func sameAsLive() async throws {
        let folder = try TemporaryStoreFolder()
        let (result, _, _, _) = try await Samples.recordDemo(into: folder.location)
        let store = try RunWalkStore(location: folder.location)
        let rebuilt = try store.read { db in try SummaryRebuilder.summary(db, sessionID: 1, state: result.summary.state) }
        #expect(result.summary.movingTimeSeconds > 0)
        #expect(abs(rebuilt.movingTimeSeconds - result.summary.movingTimeSeconds) <= 0.0015,
                "live \(result.summary.movingTimeSeconds) s, rebuilt \(rebuilt.movingTimeSeconds) s")
        #expect(rebuilt.elapsedSeconds == result.summary.elapsedSeconds)
        #expect(rebuilt.pausedSeconds == result.summary.pausedSeconds)
        #expect(rebuilt.averagePaceSecondsPerKm == result.summary.averagePaceSecondsPerKm)
        #expect(rebuilt.events == result.summary.events)
        #expect(rebuilt.startUTC == result.summary.startUTC)
    }
}
