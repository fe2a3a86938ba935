import Foundation
import RunWalkStore

/// A temporary `RUNWALK_DATA_DIR` and a way to run `runwalk` against it.
final class TemporaryDataFolder {
    let url: URL

    init(_ name: String = "runwalk-store") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // A data folder is owner-only (runwalk tightens a looser one and says so).
        chmod(url.path, 0o700)
    }

    var location: StoreLocation { StoreLocation(directory: url.path) }

    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["RUNWALK_DATA_DIR": url.path]) { _, new in new }
    }

    /// Runs `runwalk` to the end with this folder as its data folder.
    func run(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> RunWalkBinary.Output {
        try RunWalkBinary.collect(process(arguments, extraEnvironment: extraEnvironment))
    }

    /// A `runwalk` process, not started, with this data folder.
    func process(_ arguments: [String], extraEnvironment: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = RunWalkBinary.url
        process.arguments = arguments
        process.currentDirectoryURL = RunWalkBinary.repositoryRoot
        process.environment = environment.merging(extraEnvironment) { _, new in new }
        return process
    }

    deinit { try? FileManager.default.removeItem(at: url) }
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
