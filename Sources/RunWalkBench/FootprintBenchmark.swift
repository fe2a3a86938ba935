import Foundation

/// `runwalk-bench footprint [--minutes M] [--config 1hz|10hz|nodata[,…]] [--voice text|speaker[,…]]
/// [--workout SPEC] [--runwalk PATH] [--threads]`
///
/// What a live `runwalk run` costs a handheld's battery, beside `gpspipe -w` on the same gpsd:
/// gpsfake replays a synthetic track (1 Hz or 10 Hz, RMC + GGA per epoch, paced by gpsfake's
/// `-c`) through a private gpsd on a free loopback port (`nodata`: a gpsd with no device), and
/// `runwalk run --gps gpsd://127.0.0.1:PORT --start now` runs in line mode (no terminal),
/// recording into a private data folder, with `--voice text` and, when pulseaudio is installed,
/// `--voice speaker` into a private PulseAudio's null sink. After a 5 s warm-up each process is
/// followed for M minutes (default 0.5): wake-ups a second (voluntary context switches over all
/// threads), preemptions, CPU % of one core (schedstat), RSS start/end/max and its slope, and
/// at the end RssAnon (the process's own pages) and PSS (shared pages divided among their processes).
/// The goals (issue 18): at most 5 wake-ups a second beyond one per fix batch (gpspipe's TPVs a
/// second), RSS ≤ 25 MB and flat, CPU ≤ 0.5 % of a core at 10 Hz.
enum FootprintBenchmark {
    struct Options {
        var minutes = 0.5
        var configurations = ["nodata", "1hz", "10hz"]
        var voices = ["text", "speaker"]
        var runwalk: String?
        var threads = false
        var warmUpSeconds = 5.0
        /// The workout run; nil for intervals that outlast the measurement ("Nx(90s run, 60s walk)").
        var workout: String?
    }

    static let usage = "usage: footprint [--minutes M] [--config nodata,1hz,10hz] [--voice text,speaker] [--workout SPEC] [--runwalk PATH] [--threads]"

    static func run(_ arguments: ArraySlice<String>) throws {
        var options = Options()
        var rest = arguments
        while let flag = rest.popFirst() {
            switch flag {
            case "--minutes":
                guard let value = rest.popFirst().flatMap(Double.init), value > 0 else { throw BenchError.usage(usage) }
                options.minutes = value
            case "--config":
                guard let value = rest.popFirst() else { throw BenchError.usage(usage) }
                options.configurations = value.split(separator: ",").map(String.init)
                guard options.configurations.allSatisfy({ ["nodata", "1hz", "10hz"].contains($0) }) else { throw BenchError.usage(usage) }
            case "--voice":
                guard let value = rest.popFirst() else { throw BenchError.usage(usage) }
                options.voices = value.split(separator: ",").map(String.init)
                guard options.voices.allSatisfy({ ["text", "speaker"].contains($0) }) else { throw BenchError.usage(usage) }
            case "--runwalk":
                guard let value = rest.popFirst() else { throw BenchError.usage(usage) }
                options.runwalk = value
            case "--workout":
                guard let value = rest.popFirst() else { throw BenchError.usage(usage) }
                options.workout = value
            case "--threads": options.threads = true
            default: throw BenchError.usage(usage)
            }
        }
        let runwalk = options.runwalk ?? siblingRunwalk()
        guard FileManager.default.isExecutableFile(atPath: runwalk) else { throw BenchError("\(runwalk): not found; pass --runwalk PATH") }
        for tool in ["/usr/bin/gpsfake", "/usr/bin/gpspipe", "/usr/sbin/gpsd"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw BenchError("\(tool) is not installed (scripts/test installs gpsd and gpsd-clients)")
        }
        let folder = NSTemporaryDirectory() + "runwalk-footprint-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var pulse: BenchChild?
        if options.voices.contains("speaker") {
            pulse = try FootprintServices.pulseAudio(in: folder)
            if pulse == nil { BenchLog.error("footprint: no PulseAudio here; --voice speaker is left out") }
        }
        defer { pulse?.stop() }
        print("footprint: \(runwalk), \(options.workout.map { "workout \"\($0)\", " } ?? "")\(NMEABenchmark.format(options.minutes, 2)) min per configuration after a "
              + "\(Int(options.warmUpSeconds)) s warm-up; wake-ups = voluntary context switches a second over all threads")
        print("| configuration | process | fixes/s | wake-ups/s | beyond fixes | preempted/s | CPU % | RSS start | RSS end | RSS max | RSS MB/min | anon end | PSS end |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        var threadLines: [String] = []
        for configuration in options.configurations {
            for voice in options.voices where voice == "text" || pulse != nil {
                let result = try measure(configuration: configuration, voice: voice, runwalk: runwalk, folder: folder, options: options)
                let label = "\(configuration), voice \(voice)"
                for (name, footprint) in [("runwalk", result.runwalk), ("gpspipe -w", result.gpspipe)] {
                    print("| \(label) | \(name) | \(f(result.fixesPerSecond, 1)) | \(f(footprint.wakeupsPerSecond, 1)) | "
                          + "\(f(footprint.wakeupsPerSecond - result.fixesPerSecond, 1)) | \(f(footprint.involuntaryPerSecond, 1)) | "
                          + "\(f(footprint.cpuPercent, 2)) | \(f(footprint.first.rssMB, 1)) | \(f(footprint.last.rssMB, 1)) | "
                          + "\(f(footprint.rssMaxMB, 1)) | \(f(footprint.rssSlopeMBPerMinute, 2)) | "
                          + "\(f(footprint.last.anonymousMB, 1)) | \(footprint.lastPSSMB.map { f($0, 1) } ?? "-") |")
                }
                if options.threads {
                    threadLines.append("\(label): " + result.runwalk.wakeupsByThread.map { "\($0.0) \(f($0.1, 1))" }.joined(separator: ", "))
                }
                if result.exitStatus != 0 { BenchLog.error("footprint: \(label): runwalk exited with wait status \(result.exitStatus)") }
            }
        }
        if !threadLines.isEmpty {
            print("\nrunwalk's wake-ups a second by thread:")
            threadLines.forEach { print("- " + $0) }
        }
    }

    struct Measurement {
        var runwalk: ProcessFootprint
        var gpspipe: ProcessFootprint
        /// TPV reports a second that gpspipe received in the window: the fix batches.
        var fixesPerSecond: Double
        var exitStatus: Int32
    }

    static func measure(configuration: String, voice: String, runwalk: String, folder: String, options: Options) throws -> Measurement {
        let run = folder + "/\(configuration)-\(voice)"
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let port = try FootprintServices.freePort()
        let seconds = options.warmUpSeconds + options.minutes * 60
        let gpsd: BenchChild
        if configuration == "nodata" {
            gpsd = try BenchChild("/usr/sbin/gpsd", ["-N", "-n", "-S", "\(port)", "-F", run + "/gpsd.sock"])
        } else {
            let hertz = configuration == "10hz" ? 10 : 1
            let track = run + "/track.nmea"
            try FootprintServices.track(hertz: hertz, seconds: seconds + 30).write(toFile: track, atomically: false, encoding: .utf8)
            // Two sentences an epoch: the delay between sentences is half an epoch.
            let delay = 1 / Double(hertz) / 2
            gpsd = try BenchChild("/usr/bin/gpsfake", ["-1", "-n", "-q", "-c", "\(delay)", "-W", "\(Int(seconds) + 120)",
                                                       "-P", "\(port)", track])
        }
        defer { gpsd.stop() }
        guard FootprintServices.waitForPort(port) else { throw BenchError("gpsd did not open port \(port)") }
        let pipeOutput = run + "/gpspipe.json"
        let pipe = try BenchChild("/usr/bin/gpspipe", ["-w", "127.0.0.1:\(port)"], stdout: pipeOutput)
        defer { pipe.stop() }
        // One timed phase ("30m run") is the last phase from the start: the end-of-workout wait
        // was planned, and the clock's thread woken, for every fix (issue 30, item 7).
        let workout = options.workout ?? "\(Int((seconds / 150).rounded(.up)) + 2)x(90s run, 60s walk)"
        var environment = ["RUNWALK_DATA_DIR": run + "/data", "RUNWALK_CONFIG_DIR": run + "/config",
                           "RUNWALK_CONTROL_SOCKET": run + "/control.sock", "XDG_RUNTIME_DIR": run, "HOME": run]
        if voice == "speaker" { environment["PULSE_SERVER"] = "unix:\(folder)/pulse.sock" }
        let child = try BenchChild(runwalk, ["run", workout, "--gps", "gpsd://127.0.0.1:\(port)", "--start", "now", "--voice", voice],
                                   environment: environment, stdout: run + "/stdout", stderr: run + "/stderr")
        defer { child.stop() }
        // Warm-up: the store opened, gpsd connected, the first cues said.
        Thread.sleep(forTimeInterval: options.warmUpSeconds)
        guard child.isRunning else { throw BenchError("runwalk ended early: " + tail(run + "/stderr")) }
        let fixesBefore = tpvCount(pipeOutput)
        let runwalkTrace: (ProcessFootprint, ProcessFootprint)
        do { runwalkTrace = try follow(child.pid, minutes: options.minutes, alongside: pipe.pid) } catch {
            throw BenchError("\(configuration), voice \(voice): \(error): runwalk said: " + tail(run + "/stderr"))
        }
        let fixesAfter = tpvCount(pipeOutput)
        // SIGTERM finalises the session: part of a run's life, outside the window.
        let status = child.stop(SIGTERM, seconds: 30)
        return Measurement(runwalk: runwalkTrace.0, gpspipe: runwalkTrace.1,
                           fixesPerSecond: Double(fixesAfter - fixesBefore) / runwalkTrace.0.seconds, exitStatus: status)
    }

    /// Follows two processes side by side: a sample at the start and the end, RSS once a second.
    static func follow(_ pid: pid_t, minutes: Double, alongside other: pid_t) throws -> (ProcessFootprint, ProcessFootprint) {
        guard let a = ProcessSample.read(pid), let b = ProcessSample.read(other) else { throw BenchError("a measured process ended early") }
        var traces = (ProcessFootprint(first: a, last: a, rss: [(0, a.rssMB)]), ProcessFootprint(first: b, last: b, rss: [(0, b.rssMB)]))
        let end = a.at + minutes * 60
        while ProcessSample.monotonicSeconds() < end {
            Thread.sleep(forTimeInterval: min(1, max(0, end - ProcessSample.monotonicSeconds())))
            guard let x = ProcessSample.read(pid), let y = ProcessSample.read(other) else { throw BenchError("a measured process ended early") }
            traces.0.last = x
            traces.0.rss.append((x.at - a.at, x.rssMB))
            traces.1.last = y
            traces.1.rss.append((y.at - b.at, y.rssMB))
        }
        traces.0.lastPSSMB = ProcessSample.proportionalMB(pid)
        traces.1.lastPSSMB = ProcessSample.proportionalMB(other)
        return traces
    }

    static func tpvCount(_ path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return String(decoding: data, as: UTF8.self).components(separatedBy: "\"class\":\"TPV\"").count - 1
    }

    static func tail(_ path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(3).joined(separator: " / ")
    }

    /// The `runwalk` built beside this `runwalk-bench`.
    static func siblingRunwalk() -> String {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("runwalk").path
    }

    static func f(_ value: Double, _ digits: Int) -> String { NMEABenchmark.format(value, digits) }
}
