import Foundation
import RunWalkGPS
import RunWalkRuntime
@testable import RunWalkStore
import RunWalkCore
import RunWalkIO

/// A temporary data folder, removed at the end.
final class TemporaryStoreFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var location: StoreLocation { StoreLocation(directory: url.path) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Collects the recorder's warnings.
final class Warnings: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

enum Samples {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
    static var demo: String { root.appendingPathComponent("SampleTracks/demo-short.nmea").path }
    static let demoWorkout = "1m warmup, 2x(30s run, 30s walk), 1m cooldown"

    /// A 3D fix `second` seconds into a straight run north at 3.3 m/s.
    static func fix(_ second: Int64) -> Fix {
        var fix = Fix(time: UTCTime(milliseconds: 1_776_000_000_000 + second * 1000))
        fix.latitude = 47 + Double(second) * 0.00003
        fix.longitude = 8
        fix.mode = .threeD
        fix.quality = 1
        fix.hdop = 0.8
        fix.speedMetresPerSecond = 3.3
        return fix
    }

    /// Replays demo-short through a recorder into `location`; returns the replay's result, its events and the outcome.
    static func recordDemo(into location: StoreLocation, warnings: Warnings = Warnings(), settings: SessionRecorder.Settings = .init(),
                           workout spec: String = demoWorkout, opened: (SessionRecorder) -> Void = { _ in }) async throws
        -> (SessionLoop.Result, [SessionEvent], SessionRecorder.Outcome, String) {
        let workout = try Workout(parsing: spec)
        let loop = SessionLoop.replaying(workout)
        let recorder = SessionRecorder(location: location, session: .init(workout: workout, options: loop.options, source: "replay:demo"),
                                       settings: settings, warn: { warnings.add($0) })
        opened(recorder)
        let log = SessionEventLog(also: { recorder.record($0) })
        let result = await loop.replay(track: demo, hooks: log.hooks)
        let events = log.events
        let json = try SummaryJSON.encode(result.summary)
        let outcome = recorder.finish(summary: result.summary, summaryJSON: json)
        return (result, events, outcome, json)
    }
}
