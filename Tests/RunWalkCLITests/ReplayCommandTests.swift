import Foundation
import Testing

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

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        // Never record into the user's own data folder (replays record by default), nor read their settings.
        let temporary = FileManager.default.temporaryDirectory
        process.environment = ProcessInfo.processInfo.environment
            .merging(["RUNWALK_DATA_DIR": temporary.appendingPathComponent("runwalk-cli-tests").path,
                      "RUNWALK_CONFIG_DIR": temporary.appendingPathComponent("runwalk-cli-tests-no-config").path]) { _, new in new }
            .merging(environment) { _, new in new }
        return try collect(process)
    }

    /// Starts `process` and waits for it, reading standard output and error concurrently so
    /// neither pipe fills up and blocks the child.
    static func collect(_ process: Process) throws -> Output {
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = LockedData()
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errData.isSet { usleep(1000) }
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: errData.value, as: UTF8.self))
    }
}

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
