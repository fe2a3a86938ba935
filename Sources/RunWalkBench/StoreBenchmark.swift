import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkStore

/// `runwalk-bench store [TRACK] [--repeat N]`: how many fixes a second the recorder sustains
/// into a real SQLite file (WAL, synchronous=FULL), against the 10 Hz a receiver needs.
///
/// The track is replayed once into memory; its session events are then fed to a fresh
/// `SessionRecorder` as fast as possible, and the clock runs until `finish` returns (every row
/// committed). The peer is the same rows written through SQLite alone, in one transaction per
/// 10 000 (no recorder, no thread): the ceiling the recorder's overhead is measured against.
/// A third figure writes the rows in commits as small as a 10 Hz session makes (the fsync per
/// commit dominates there), and `record()`'s own cost per call is given as quantiles.
enum StoreBenchmark {
    static func run(_ arguments: ArraySlice<String>) throws {
        var track = "SampleTracks/trail-10hz.nmea"
        var workout = "10x(400m run, 200m walk)"
        var repetitions = 3
        var rest = Array(arguments)
        while let argument = rest.first {
            rest.removeFirst()
            switch argument {
            case "--repeat": repetitions = max(1, Int(rest.first ?? "") ?? 3); if !rest.isEmpty { rest.removeFirst() }
            case "--workout": workout = rest.first ?? workout; if !rest.isEmpty { rest.removeFirst() }
            default: track = argument
            }
        }
        let parsed = try Workout(parsing: workout)
        var events: [SessionEvent] = []
        let result = try BenchReplay.run(path: track, workout: parsed) { events.append($0) }
        let fixes = result.summary.fixes.epochs
        let points = events.filter { if case .trackPoint = $0 { return true } else { return false } }.count
        print("store: \(track): \(fixes) fixes, \(points) track points, \(events.count) session events")
        print("  rows per fix: 1 fix row (raw + filtered) + 1 track point while the workout runs; commits every 0.75 s, synchronous=NORMAL in WAL")

        var rates: [Double] = []
        for repetition in 1...repetitions {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-bench-store-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            // A live session never fills the recorder's queue: measure record() as it sees it.
            var settings = SessionRecorder.Settings()
            settings.maximumQueuedRows = .max
            let recorder = SessionRecorder(location: StoreLocation(directory: folder.path),
                                           session: .init(workout: parsed, options: SessionOptions(), source: "bench:\(track)"),
                                           settings: settings, warn: { BenchLog.error($0) })
            let json = try SummaryJSON.encode(result.summary)
            var callSeconds: [Double] = []
            callSeconds.reserveCapacity(events.count)
            let start = monotonicSeconds()
            for event in events {
                let before = monotonicSeconds()
                recorder.record(event)
                callSeconds.append(monotonicSeconds() - before)
            }
            let fed = monotonicSeconds()
            let outcome = recorder.finish(summary: result.summary, summaryJSON: json)
            let elapsed = monotonicSeconds() - start
            guard outcome.rowsLost == 0 else { throw BenchError("\(outcome.rowsLost) rows were not written") }
            let rate = Double(fixes) / elapsed
            rates.append(rate)
            callSeconds.sort()
            func quantile(_ q: Double) -> Double { callSeconds[min(callSeconds.count - 1, Int(Double(callSeconds.count) * q))] * 1e6 }
            print(String(format: "  run %d: %.3f s to commit all (feeding took %.3f s); %.0f fixes/s; "
                         + "record() µs p50 %.2f p99 %.2f p99.9 %.1f max %.1f",
                         repetition, elapsed, fed - start, rate, quantile(0.5), quantile(0.99), quantile(0.999), quantile(1)))
        }
        // Control: the same timing loop around a plain array append, to tell the machine's own
        // scheduling hiccups (other processes on two cores) from the recorder's.
        var sink: [SessionEvent] = []
        var controlSeconds: [Double] = []
        controlSeconds.reserveCapacity(events.count)
        for event in events {
            let before = monotonicSeconds()
            sink.append(event)
            controlSeconds.append(monotonicSeconds() - before)
        }
        controlSeconds.sort()
        print(String(format: "  control (array append in the same loop): µs p50 %.2f p99 %.2f p99.9 %.1f max %.1f",
                     controlSeconds[controlSeconds.count / 2] * 1e6, controlSeconds[Int(Double(controlSeconds.count) * 0.99)] * 1e6,
                     controlSeconds[Int(Double(controlSeconds.count) * 0.999)] * 1e6, (controlSeconds.last ?? 0) * 1e6))
        let median = rates.sorted()[rates.count / 2]
        let peer = try rawSQLiteRate(events: events, workout: parsed, track: track, fixes: fixes, rowsPerCommit: 10_000)
        // At 10 Hz a quarter-second commit carries 2-3 fixes: the fsync per commit dominates.
        let smallEvents = Array(events.prefix(4000))
        let smallFixes = smallEvents.filter { if case .telemetry = $0 { return true } else { return false } }.count
        let small = try rawSQLiteRate(events: smallEvents, workout: parsed, track: track, fixes: smallFixes, rowsPerCommit: 6)
        print(String(format: "  recorder: %.0f fixes/s sustained (median of %d) = %.0fx the 10 Hz need", median, repetitions, median / 10))
        print(String(format: "  peer (same rows, SQLite alone, one transaction per 10 000 rows): %.0f fixes/s; recorder at %.0f%% of it",
                     peer, median / peer * 100))
        print(String(format: "  commits as small as at 10 Hz (3 fixes + 3 track points each, synchronous=FULL): %.0f fixes/s = %.0fx the need; "
                     + "one commit takes %.2f ms of the 250 ms between commits", small, small / 10, 3 / small * 1000))
    }

    /// The same session written straight through `RunWalkStore`'s file with no recorder (the ceiling).
    static func rawSQLiteRate(events: [SessionEvent], workout: Workout, track: String, fixes: Int, rowsPerCommit: Int) throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-bench-peer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try RunWalkStore(location: StoreLocation(directory: folder.path))
        let start = monotonicSeconds()
        try store.benchmarkBulkInsert(events: events, batch: rowsPerCommit)
        return Double(fixes) / (monotonicSeconds() - start)
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }
}

