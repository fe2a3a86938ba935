import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkGPS
import RunWalkReport
import RunWalkRuntime
import RunWalkTestSupport

/// Sessions made by replaying the sample tracks, as the recorder would store them.
enum SampleSession {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// GPX 1.1, TCX v2 and TrackPointExtension v1, in the repository (their README says whence).
    static let schemasFolder = repositoryRoot.appendingPathComponent("Tests/Fixtures/schemas")

    static func trackPath(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("SampleTracks/\(name).nmea").path
    }

    /// Replays `path` against `workout` and collects the summary and the track points.
    static func replay(path: String, workout spec: String) async throws -> RecordedSession {
        let workout = try Workout(parsing: spec)
        let log = SessionEventLog()
        let result = await SessionLoop.replaying(workout).replay(track: path, hooks: log.hooks)
        let track = log.events.compactMap { event -> TrackPoint? in
            if case .trackPoint(let point) = event { return point } else { return nil }
        }
        return RecordedSession(summary: result.summary, track: track)
    }

    /// Writes `session` to `file` as `format` (gpx, tcx or fit), rendered off the cooperative pool
    /// (a few hundred ms in a debug build), for a replay of the export.
    static func export(_ session: RecordedSession, as format: String, to file: URL) async throws {
        try await offPool {
            switch format {
            case "gpx": try GPXWriter.render(session).write(to: file, atomically: true, encoding: .utf8)
            case "tcx": try TCXWriter.render(session).write(to: file, atomically: true, encoding: .utf8)
            default: try Data(FITActivityWriter.render(session)).write(to: file)
            }
        }
    }

    /// `replay` from a thread of its own (never a cooperative-pool thread: it waits).
    static func replayBlocking(path: String, workout spec: String) throws -> RecordedSession {
        final class Box: @unchecked Sendable { var result: Result<RecordedSession, any Error>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await replay(path: path, workout: spec)) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// The sample tracks and their workouts.
    static let workouts: [String: String] = [
        "track-loop": "5m warmup, 8x(90s run, 60s walk), 5m cooldown",
        "trail-10hz": "10x(400m run, 200m walk)",
        "city-stopgo": "10m warmup, 6x(3m run, 2m walk), 5m cooldown",
        "demo-short": "1m warmup, 2x(30s run, 30s walk), 1m cooldown",
    ]

    private static let cache = Cache()

    /// A sample track's session, replayed once per test process (tests asking at the same
    /// time wait for the one replay instead of each running their own: less load beside
    /// the timing-sensitive gpsd suites).
    static func named(_ name: String) async throws -> RecordedSession {
        try await offPool {
            try cache.value(name) { try HeavyWork.one { try replayBlocking(path: trackPath(name), workout: workouts[name] ?? "10m run") } }
        }
    }

    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var sessions: [String: RecordedSession] = [:]
        func value(_ name: String, make: () throws -> RecordedSession) throws -> RecordedSession {
            lock.lock()
            defer { lock.unlock() }
            if let hit = sessions[name] { return hit }
            let session = try make()
            sessions[name] = session
            return session
        }
    }
}

/// Runs external tools (xmllint, python3, chromium) for real.
enum Tool {
    struct Output { var status: Int32; var stdout: String; var stderr: String }

    /// The full path of `name` on PATH, or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs a tool on a thread of its own, so waiting for it does not hold one of the few
    /// cooperative-pool threads that other suites (gpsd's timing-sensitive ones) need, and
    /// one at a time (`HeavyWork`), so this target uses about one core of the two.
    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, timeoutSeconds: Double = 60) async throws -> Output {
        try await offPool { try HeavyWork.one { try runBlocking(executable, arguments, stdin: stdin, timeoutSeconds: timeoutSeconds) } }
    }

    static func runBlocking(_ executable: String, _ arguments: [String], stdin: Data? = nil, timeoutSeconds: Double = 60) throws -> Output {
        // Private folders, a process group of its own, killed at the deadline (ChildProcess).
        let result = try ChildProcess.run(executable, arguments, standardInput: .data(stdin ?? Data()), seconds: timeoutSeconds)
        return Output(status: result.status ?? SIGKILL, stdout: result.stdout, stderr: result.stderr)
    }

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static var python: String? { find("python3") }

    /// Keeps a copy of a test's output in `$RUNWALK_TEST_KEEP` (a folder) when set, to look at by hand.
    static func keep(_ data: Data, as name: String) {
        guard let folder = ProcessInfo.processInfo.environment["RUNWALK_TEST_KEEP"], !folder.isEmpty else { return }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? data.write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
    }

    /// Whether python3 can import Garmin's FIT SDK.
    static let hasGarminFIT: Bool = {
        guard let python else { return false }
        return (try? runBlocking(python, ["-c", "import garmin_fit_sdk"]).status) == 0
    }()
}

/// Runs blocking work (replays, child processes) on a new thread and awaits it. The thread
/// runs at nice 10 (Linux: per thread; children started from it inherit it), so the gpsd
/// suites' timing-sensitive processes running beside these tests get the CPU first.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            #if os(Linux)
            // who = 0 is the calling thread on Linux (its nice value is per thread).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            #endif
            continuation.resume(with: Result { try body() })
        }.start()
    }
}

/// This target's heavy work (replays, chromium, python, xmllint) runs one piece at a time,
/// leaving the machine's other core to the suites that run beside it (CI has two).
enum HeavyWork {
    private static let lock = NSLock()

    static func one<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// How many times `needle` occurs in `text` (a byte scan: no substrings made).
func occurrences(of needle: String, in text: String) -> Int {
    let n = Array(needle.utf8)
    var count = 0
    text.utf8.withContiguousStorageIfAvailable { bytes in
        guard let first = n.first, bytes.count >= n.count else { return }
        var i = 0
        let last = bytes.count - n.count
        outer: while i <= last {
            if bytes[i] == first {
                for k in 1..<n.count where bytes[i + k] != n[k] { i += 1; continue outer }
                count += 1
                i += n.count
            } else {
                i += 1
            }
        }
    }
    return count
}

/// Counts of markers in a rendered document, made off the cooperative pool (multi-MB exports).
func renderAndCount(_ render: @escaping @Sendable () -> String, _ needles: [String]) async throws -> [String: Int] {
    try await offPool {
        var text = render()
        text.makeContiguousUTF8()
        var counts: [String: Int] = [:]
        for needle in needles { counts[needle] = occurrences(of: needle, in: text) }
        return counts
    }
}
