import Foundation
import Testing
@testable import RunWalkStore
import RunWalkCore

/// The recorder's damage check of the usual database (quick_check) runs beside the recording:
/// rows are committed while it reads, and a damaged answer moves the whole session to the
/// fallback database.
@Suite("recorder's store check")
struct RecorderCheckTests {
    /// A check held until the test lets it answer.
    final class HeldCheck: @unchecked Sendable {
        private let gate = DispatchSemaphore(value: 0)
        private let answer: String

        init(answering answer: String) { self.answer = answer }

        func check(_ store: RunWalkStore) throws -> String {
            // Never hangs a failing test for ever.
            _ = gate.wait(timeout: .now() + 120)
            return answer
        }

        func release() { gate.signal() }
    }

    /// Records 11 fixes of a 6-minute workout and stops it; returns the recorder and the summary.
    static func record(into folder: TemporaryStoreFolder, check: HeldCheck, warnings: Warnings) throws -> (SessionRecorder, Summary) {
        let workout = try Workout(parsing: "2m run, 2m walk, 2m run")
        var runner = SessionRunner(workout: workout)
        var settings = SessionRecorder.Settings()
        settings.storeCheck = { try check.check($0) }
        let recorder = SessionRecorder(location: folder.location, session: .init(workout: workout, options: runner.options, source: "test"),
                                       settings: settings, warn: { warnings.add($0) })
        var events = runner.start(at: .zero, utc: Samples.fix(0).time)
        for second in Int64(0)...10 { events += runner.ingest(Samples.fix(second), at: .seconds(second)) }
        events += runner.stop(at: .seconds(11))
        recorder.record(contentsOf: events)
        return (recorder, runner.summary(linesBad: 0))
    }

    /// Records 11 fixes while the check is held, waits until they are committed (at most 60 s),
    /// lets the check answer `answer` and closes the session; returns the fix rows committed
    /// before the answer and the recorder's outcome.
    static func recordThroughHeldCheck(answering answer: String, into folder: TemporaryStoreFolder, warnings: Warnings)
        throws -> (committed: Int, outcome: SessionRecorder.Outcome) {
        let check = HeldCheck(answering: answer)
        let (recorder, summary) = try record(into: folder, check: check, warnings: warnings)
        let committed = try waitForCommit(of: 11, in: folder.location)
        check.release()
        return (committed, recorder.finish(summary: summary, summaryJSON: "{}"))
    }

    /// Fix rows in the database at `location` (0 while it has no session).
    static func fixRows(_ location: StoreLocation) throws -> Int {
        guard let store = try RunWalkStore.openForReading(location: location) else { return 0 }
        return try store.read { db in try db.value(Int.self, "SELECT COUNT(*) FROM fixes") ?? 0 }
    }

    /// Waits (at most 60 s) until the usual database holds `count` fix rows; the count last read.
    /// Polled from this thread, not a task: under the whole suite the cooperative pool can leave
    /// a sleeping task unscheduled past its deadline.
    static func waitForCommit(of count: Int, in location: StoreLocation) throws -> Int {
        let deadline = Date().addingTimeInterval(60)
        while true {
            let rows = try fixRows(location)
            if rows >= count || Date() >= deadline { return rows }
            usleep(20_000)
        }
    }

    @Test("rows are committed while the check reads; the session closes once it answered sound")
    func committedWhileChecking() throws {
        let folder = try TemporaryStoreFolder()
        let warnings = Warnings()
        let (committed, outcome) = try Self.recordThroughHeldCheck(answering: "ok", into: folder, warnings: warnings)
        // The check had not answered, and the rows were on disk all the same (the crash bound).
        #expect(committed == 11)
        #expect(outcome == SessionRecorder.Outcome(sessionID: 1, rowsLost: 0))
        #expect(warnings.all.isEmpty, "\(warnings.all)")
        let store = try RunWalkStore(location: folder.location, create: false)
        #expect(try store.sessions().count == 1)
        #expect(try store.fixCount(sessionID: 1) == 11, "each row once")
    }

    @Test("a damaged answer after rows were committed: the whole session goes to the fallback, none of it stays")
    func damagedAfterCommits() throws {
        let folder = try TemporaryStoreFolder()
        let warnings = Warnings()
        let (committed, outcome) = try Self.recordThroughHeldCheck(
            answering: "*** in database main ***\nPage 9: free space corruption", into: folder, warnings: warnings)
        #expect(committed == 11)
        #expect(outcome.rowsLost == 0 && outcome.sessionID == 1)
        #expect(warnings.all.count == 1 && warnings.all.first?.contains("is damaged (quick_check: *** in database main ***)") == true,
                "\(warnings.all)")
        let fallbacks = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("fallback-") }
        let fallback = StoreLocation(directory: folder.url.path + "/" + (try #require(fallbacks.first)))
        #expect(fallbacks.count == 1)
        let rescued = try RunWalkStore(location: fallback, create: false)
        let sessions = try rescued.sessions()
        #expect(sessions.count == 1 && sessions.first?.state == .closed(.stopped))
        #expect(try rescued.fixCount(sessionID: 1) == 11, "the rows committed before the answer are in the fallback too")
        let usual = try RunWalkStore(location: folder.location, create: false)
        #expect(try usual.sessions().isEmpty, "the session's start is deleted from the damaged file")
        #expect(try Self.fixRows(folder.location) == 0)
    }
}
