import Foundation
import Testing
import RunWalkTestSupport

/// Runs the built `runwalk` binary as a user would.
enum RunWalkBinary {
    static var url: URL {
        // The test bundle sits beside the executables in the build folder.
        var dir = Bundle.main.bundleURL
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("runwalk").path) {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("runwalk")
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    struct Output { var status: Int32; var stdout: String; var stderr: String }

    /// Runs `runwalk ARGUMENTS` to its end with private data, config, state and runtime folders
    /// (never the user's: replays record by default, and settings.conf would change the output).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        try collect(Launch(arguments, environment: environment))
    }

    /// Runs `launch` to its end (at most `seconds`; then it is killed and the test fails with what
    /// it wrote), reading standard output and error as they come.
    static func collect(_ launch: Launch, seconds: Double = 300) throws -> Output {
        let child = try launch.start()
        defer { child.stop(graceSeconds: 0.5) }
        guard let status = child.wait(seconds: seconds) else {
            throw LaunchTimedOut(description: "\(launch.arguments) did not end within \(seconds) s; stderr: \(child.stderr)")
        }
        return Output(status: status, stdout: child.stdout, stderr: child.stderr)
    }
}

/// A command a test starts, always through `ChildProcess` (private folders, its own process group,
/// output read with plain reads): `runwalk` itself unless `executable` says otherwise.
struct Launch {
    var executable: String
    var arguments: [String]
    /// On top of the private folders' variables.
    var environment: [String: String]
    var currentDirectory: URL? = RunWalkBinary.repositoryRoot
    var standardInput: ChildProcess.Input = .null
    /// A descriptor for standard output instead of collecting it.
    var standardOutput: Int32?
    /// Folders shared with other processes; a fresh private set when nil.
    var folders: PrivateEnvironment?

    init(_ arguments: [String], executable: String = RunWalkBinary.url.path, environment: [String: String] = [:],
         folders: PrivateEnvironment? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.folders = folders
    }

    func start() throws -> ChildProcess {
        try ChildProcess(executable, arguments, currentDirectory: currentDirectory, environment: environment, folders: folders,
                         standardInput: standardInput, standardOutput: standardOutput)
    }
}

struct LaunchTimedOut: Error, CustomStringConvertible { var description: String }

@Suite("runwalk replay (end to end)")
struct ReplayCommandTests {
    @Test("a bad workout spec exits 2 naming the column and cause")
    func badSpec() throws {
        let result = try RunWalkBinary.run(["replay", "x.nmea", "--workout", "8x(90s run"])
        #expect(result.status == 2)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == "runwalk: error: workout spec: the \"(\" at column 3 is never closed: expected \")\" at column 11")
        #expect(result.stdout.isEmpty)
    }

    @Test("a missing track exits 2 naming the path")
    func missingTrack() throws {
        let result = try RunWalkBinary.run(["replay", "no-such-track.nmea", "--workout", "5m run"])
        #expect(result.status == 2)
        #expect(result.stderr == "runwalk: error: no-such-track.nmea: no such file\n")
    }
}

@Suite("runwalk replay --json (contract)")
struct ReplayContractTests {
    static let spec = "5m warmup, 8x(90s run, 60s walk), 5m cooldown"

    @Test("the loop track's phases fall exactly on the planned boundaries")
    func plannedBoundaries() throws {
        let result = try RunWalkBinary.run(["replay", "SampleTracks/track-loop.nmea", "--workout", Self.spec, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let summary = try #require(object as? [String: Any])
        #expect(summary["workout"] as? String == Self.spec)
        #expect(summary["start_utc"] as? String == "2026-04-12T06:30:00Z")
        #expect(summary["duration_s"] as? Double == 1800)
        let phases = try #require(summary["phases"] as? [[String: Any]])
        #expect(phases.count == 18)
        let planned: [Double] = [300] + Array(repeating: [90.0, 60.0], count: 8).flatMap { $0 } + [300]
        var start = 0.0
        for (phase, length) in zip(phases, planned) {
            #expect(phase["start_s"] as? Double == start)
            #expect(phase["duration_s"] as? Double == length)
            #expect((phase["planned"] as? [String: Any])?["duration_s"] as? Double == length)
            #expect(phase["distance_m"] is Double)
            start += length
        }
        #expect(phases.map { $0["kind"] as? String } == ["warmup"] + Array(repeating: ["run", "walk"], count: 8).flatMap { $0 } + ["cooldown"])
        for key in ["moving_time_s", "distance_m", "avg_pace_s_per_km", "splits", "cues", "fixes"] {
            #expect(summary[key] != nil, "missing \(key)")
        }
        let fixes = try #require(summary["fixes"] as? [String: Any])
        #expect(fixes["epochs"] as? Int == 1801)
        #expect(fixes["lines_bad"] as? Int == 0)
        // Truth beside the track: the distance is within 5 % even for this first estimator.
        let truth = try JSONSerialization.jsonObject(
            with: Data(contentsOf: RunWalkBinary.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.truth.json"))) as? [String: Any]
        let truthDistance = try #require(truth?["distance_m"] as? Double)
        let distance = try #require(summary["distance_m"] as? Double)
        #expect(abs(distance - truthDistance) / truthDistance < 0.05)
    }

    @Test("--json prints only JSON on standard output")
    func onlyJSON() throws {
        let result = try RunWalkBinary.run(["replay", "SampleTracks/demo-short.nmea", "--workout", "1m warmup, 2x(30s run, 30s walk), 1m cooldown", "--json"])
        #expect(result.status == 0)
        #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) != nil)
    }

    @Test("a track shorter than the workout ends the summary as incomplete")
    func incomplete() throws {
        let result = try RunWalkBinary.run(["replay", "SampleTracks/demo-short.nmea", "--workout", "30m run", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(summary["state"] as? String == "incomplete")
        let phase = try #require((summary["phases"] as? [[String: Any]])?.first)
        #expect(phase["end_reason"] as? String == "stopped")
        #expect((phase["duration_s"] as? Double ?? 0) > 240)
    }
}

@Suite("runwalk fixes")
struct FixesCommandTests {
    @Test("one JSON object per epoch with the DESIGN keys")
    func jsonl() throws {
        let result = try RunWalkBinary.run(["fixes", "SampleTracks/demo-short.nmea", "--format", "jsonl"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 251)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["time"] as? String != nil)
        for key in ["lat", "lon", "alt_msl", "mode", "quality", "hdop", "sats"] {
            #expect(first[key] != nil, "missing \(key)")
        }
    }
}
