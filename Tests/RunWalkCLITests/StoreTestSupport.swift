import Foundation
import RunWalkStore
import RunWalkTestSupport

/// A temporary `RUNWALK_DATA_DIR` and a way to run `runwalk` against it; the processes it starts
/// share its private config, state, cache and runtime folders too (`PrivateEnvironment`).
final class TemporaryDataFolder {
    let url: URL
    /// The private folders of every process started here; `url` is its data folder.
    let folders: PrivateEnvironment

    init(_ name: String = "runwalk-store") throws {
        folders = try PrivateEnvironment(name)
        url = folders.dataFolder.appendingPathComponent("runwalk")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // A data folder is owner-only (runwalk tightens a looser one and says so).
        chmod(url.path, 0o700)
    }

    var location: StoreLocation { StoreLocation(directory: url.path) }

    /// The environment of a process started here (the private folders, this data folder).
    var environment: [String: String] { folders.environment(["RUNWALK_DATA_DIR": url.path]) }

    /// Runs `runwalk` to the end with this folder as its data folder.
    func run(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> RunWalkBinary.Output {
        try RunWalkBinary.collect(process(arguments, extraEnvironment: extraEnvironment))
    }

    /// A `runwalk` command, not started, with this data folder.
    func process(_ arguments: [String], extraEnvironment: [String: String] = [:]) -> Launch {
        Launch(arguments, environment: ["RUNWALK_DATA_DIR": url.path].merging(extraEnvironment) { _, new in new }, folders: folders)
    }

    deinit { folders.remove() }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return data != nil }
    var value: Data { lock.lock(); defer { lock.unlock() }; return data ?? Data() }
}

/// A sample track's path relative to the repository root.
enum Sample {
    static let demo = "SampleTracks/demo-short.nmea"
    static let demoWorkout = "1m warmup, 2x(30s run, 30s walk), 1m cooldown"
    static let loop = "SampleTracks/track-loop.nmea"
    static let loopWorkout = "5m warmup, 8x(90s run, 60s walk), 5m cooldown"
}
