import Foundation

/// `runwalk-bench replay [TRACK] [--workout SPEC] [--repeat N] [--runwalk PATH]`: how long a
/// `runwalk replay` of a long track takes and how much memory it holds at its peak, recorded
/// into a fresh store and with `--no-record`, against issue 18's goals for a 5-hour marathon at
/// 10 Hz (≤ 2 s and ≤ 100 MB recorded, ≤ 60 MB not recorded).
///
/// The track is made by `scripts/marathon-track.py FOLDER` (too big to commit). Each run is
/// the real `runwalk` binary (by default the one beside this one) in a child process: wall
/// time from spawn to exit, its CPU time (user + system: what a busy machine's load does not
/// inflate), peak resident memory from the child's `ru_maxrss`. On Linux that
/// figure keeps the spawning process's peak across the exec, so this process's own peak is
/// printed beside it: a child figure at or under it would be this process's, not the child's.
enum ReplayBenchmark {
    static let defaultTrack = "/tmp/runwalk-marathon/marathon-10hz.nmea"
    static let defaultWorkout = "10m warmup, 28x(9m run, 1m walk), 10m cooldown"

    static func run(_ arguments: ArraySlice<String>) throws {
        var track = defaultTrack
        var workout = defaultWorkout
        var repetitions = 3
        var runwalk = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("runwalk").path
        var rest = Array(arguments)
        while let argument = rest.first {
            rest.removeFirst()
            let value = rest.first
            switch argument {
            case "--repeat": repetitions = max(1, Int(value ?? "") ?? 3)
            case "--workout": workout = value ?? workout
            case "--runwalk": runwalk = value ?? runwalk
            default:
                track = argument
                continue
            }
            if !rest.isEmpty { rest.removeFirst() }
        }
        guard FileManager.default.fileExists(atPath: track) else {
            throw BenchError.usage("replay: \(track) is missing; make it with `scripts/marathon-track.py \((track as NSString).deletingLastPathComponent)`")
        }
        let size = try NMEABenchmark.fileSize(track)
        print("replay: \(track) (\(size / 1_000_000) MB), workout \"\(workout)\", \(repetitions) runs each, \(runwalk)")
        for recorded in [true, false] {
            var seconds: [Double] = []
            var cpu: [Double] = []
            var peaks: [Int] = []
            var distance = ""
            for _ in 1...repetitions {
                let run = try replay(runwalk: runwalk, track: track, workout: workout, recorded: recorded)
                seconds.append(run.seconds)
                cpu.append(run.cpuSeconds)
                peaks.append(run.maxRSSKilobytes)
                distance = run.distance
            }
            seconds.sort()
            cpu.sort()
            let goal = recorded ? "goal ≤ 2 s, ≤ 100 MB" : "goal ≤ 60 MB"
            print(String(format: "  %@: elapsed median %.2f s (min %.2f, max %.2f), CPU (user+sys) median %.2f s; peak RSS max %.1f MB (min %.1f); distance_m %@  [%@]",
                         recorded ? "recorded   " : "--no-record", seconds[seconds.count / 2], seconds[0], seconds[seconds.count - 1],
                         cpu[cpu.count / 2],
                         Double(peaks.max() ?? 0) / 1024, Double(peaks.min() ?? 0) / 1024, distance, goal))
        }
        print(String(format: "  this process's own peak RSS: %.1f MB (child figures above it are the child's)",
                     Double(TracksBenchmark.peakResidentKilobytes()) / 1024))
    }

    /// One `runwalk replay` in a child with a fresh data folder: wall seconds, peak RSS, distance.
    static func replay(runwalk: String, track: String, workout: String, recorded: Bool) throws
        -> (seconds: Double, cpuSeconds: Double, maxRSSKilobytes: Int, distance: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-bench-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("summary.json").path
        let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw BenchError("cannot write \(output)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fd, STDOUT_FILENO)
        var words = [runwalk, "replay", track, "--workout", workout, "--json"]
        if !recorded { words.append("--no-record") }
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment
        environment["RUNWALK_DATA_DIR"] = folder.appendingPathComponent("data").path
        environment["RUNWALK_CONFIG_DIR"] = folder.appendingPathComponent("config").path
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") }
        envp.append(nil)
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let start = StoreBenchmark.monotonicSeconds()
        guard posix_spawn(&pid, runwalk, &actions, nil, argv, envp) == 0 else {
            close(fd)
            throw BenchError("cannot start \(runwalk)")
        }
        close(fd)
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { throw BenchError("lost the replay child") }
        let seconds = StoreBenchmark.monotonicSeconds() - start
        guard status == 0 else { throw BenchError("runwalk replay exited with status \(status)") }
        let json = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let distance = json.range(of: #""distance_m"\s*:\s*[0-9.]+"#, options: .regularExpression)
            .map { String(json[$0].split(separator: ":").last ?? "").trimmingCharacters(in: .whitespaces) } ?? "?"
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return (seconds, cpu, usage.ru_maxrss, distance)
    }
}
