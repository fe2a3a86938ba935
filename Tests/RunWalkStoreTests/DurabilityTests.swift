import Foundation
import Testing
@testable import RunWalkStore
import RunWalkCore
import RunWalkIO
import RunWalkGPS
import RunWalkRuntime

/// Issue 18, "Storage": the WAL stays bounded over a long recording, and the recorder syncs to
/// the disk by checkpoints (the power-loss promise in the README).
@Suite("store durability and WAL size", .serialized)
struct DurabilityTests {
    static var trail: String { Samples.root.appendingPathComponent("SampleTracks/trail-10hz.nmea").path }

    @Test("the -wal stays under 1 MB through a 28,000-fix recording (SQLite's default let it reach 4 MB)")
    func walBounded() async throws {
        let folder = try TemporaryStoreFolder()
        let workout = try Workout(parsing: "5m warmup, 8x(90s run, 60s walk), 5m cooldown")
        let replay = SessionLoop.replaying(workout)
        let recorder = SessionRecorder(location: folder.location, session: .init(workout: workout, options: replay.options, source: "replay:trail"),
                                       warn: { _ in })
        let wal = folder.location.databasePath + "-wal"
        final class Sampler: @unchecked Sendable { var largest: Int64 = 0; var events = 0 }
        let sampler = Sampler()
        let log = SessionEventLog(also: { event in
            recorder.record(event)
            sampler.events += 1
            // Sample the WAL's size as the writer thread commits behind us.
            if sampler.events % 2_000 == 0 {
                let size = ((try? FileManager.default.attributesOfItem(atPath: wal)[.size]) as? Int64) ?? 0
                sampler.largest = max(sampler.largest, size)
            }
        })
        let result = await replay.replay(track: Self.trail, hooks: log.hooks)
        var largest = sampler.largest
        let outcome = recorder.finish(summary: result.summary, summaryJSON: try SummaryJSON.encode(result.summary))
        #expect(outcome.rowsLost == 0)
        let final = ((try? FileManager.default.attributesOfItem(atPath: wal)[.size]) as? Int64) ?? 0
        largest = max(largest, final)
        let database = ((try? FileManager.default.attributesOfItem(atPath: folder.location.databasePath)[.size]) as? Int64) ?? 0
        print("WAL bound: largest -wal seen \(largest) bytes, database \(database) bytes, \(result.summary.fixes.epochs) fixes")
        #expect(database > 4 << 20, "the recording is large enough to matter")
        #expect(largest < 1 << 20, "largest -wal \(largest) bytes")
    }
}
