import Foundation

/// `runwalk-bench fixes [--file PATH] [--size-mb N] [--runs N] [--gpsdecode-runs N]`
///
/// End to end, as a user runs it: `runwalk fixes --format jsonl FILE > /dev/null` against
/// `gpsdecode < FILE > /dev/null` on the same log (the one `nmea` builds), and both again
/// through a pipe (`cat FILE | runwalk fixes -`, `cat FILE | gpsdecode`). Best of N each,
/// wall-clock time including process start.
enum FixesBenchmark {
    static func run(_ arguments: ArraySlice<String>) throws {
        var options = try NMEABenchmark.parse(arguments)
        if !arguments.contains("--runs") { options.runs = 3 }
        let (path, temporaryFolder) = try NMEABenchmark.prepareLog(options)
        defer { if let temporaryFolder { try? FileManager.default.removeItem(atPath: temporaryFolder) } }
        let megabytes = Double(try NMEABenchmark.fileSize(path)) / 1_000_000
        let runwalk = try runwalkBinary()
        let dataFolder = NSTemporaryDirectory() + "runwalk-bench-fixes-\(ProcessInfo.processInfo.processIdentifier)"
        defer { try? FileManager.default.removeItem(atPath: dataFolder) }
        let environment = "RUNWALK_DATA_DIR='\(dataFolder)' RUNWALK_CONFIG_DIR='\(dataFolder)/config'"
        say("fixes: \(path): \(NMEABenchmark.format(megabytes, 1)) MB; runwalk: \(runwalk)")

        let cases: [(name: String, script: String, runs: Int)] = [
            ("runwalk fixes --format jsonl FILE > /dev/null",
             "\(environment) '\(runwalk)' fixes --format jsonl '\(path)' > /dev/null 2>/dev/null", options.runs),
            ("cat FILE | runwalk fixes - > /dev/null",
             "cat '\(path)' | \(environment) '\(runwalk)' fixes - > /dev/null 2>/dev/null", options.runs),
            ("gpsdecode < FILE > /dev/null", "gpsdecode < '\(path)' > /dev/null 2>/dev/null", options.gpsdecodeRuns),
            ("cat FILE | gpsdecode > /dev/null", "cat '\(path)' | gpsdecode > /dev/null 2>/dev/null", options.gpsdecodeRuns),
        ]
        var best: [Double] = []
        for entry in cases {
            var fastest = Double.infinity
            for _ in 0..<entry.runs {
                fastest = min(fastest, try NMEABenchmark.timed { try shell(entry.script) })
            }
            best.append(fastest)
            say("  \(entry.name): \(NMEABenchmark.format(fastest, 3)) s  \(NMEABenchmark.format(megabytes / fastest, 1)) MB/s"
                + "  (best of \(entry.runs))")
        }
        say("  ratio, file: runwalk fixes is \(NMEABenchmark.format(best[2] / best[0], 1))x gpsdecode")
        say("  ratio, pipe: runwalk fixes is \(NMEABenchmark.format(best[3] / best[1], 1))x gpsdecode "
            + "(\(NMEABenchmark.format(best[2] / best[1], 1))x gpsdecode reading the file)")
    }

    /// The `runwalk` executable beside this one.
    static func runwalkBinary() throws -> String {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath()
        let path = here.deletingLastPathComponent().appendingPathComponent("runwalk").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError.usage("\(path) not found: swift build -c release --product runwalk first")
        }
        return path
    }

    static func shell(_ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-o", "pipefail", "-c", script]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(script) exited \(process.terminationStatus)")
        }
    }

    static func say(_ line: String) { print(line) }
}
