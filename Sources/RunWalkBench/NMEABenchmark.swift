import Foundation
import RunWalkCore
import RunWalkIO

/// `runwalk-bench nmea [--file PATH] [--size-mb N] [--runs N] [--gpsdecode-runs N]`
///
/// Builds an NMEA log of at least `--size-mb` (default 64) MB by concatenating the shared
/// gpsd logs and the sample tracks (or uses `--file` if it exists; a missing `--file` is
/// where the built log goes, else a temporary folder), then decodes it with our decoder
/// (best of `--runs`) and with gpsd's `gpsdecode` (best of `--gpsdecode-runs`) in the same run.
enum NMEABenchmark {
    struct Options {
        var file: String?
        var sizeMegabytes = 64
        var runs = 5
        var gpsdecodeRuns = 2
    }

    static func run(_ arguments: ArraySlice<String>) throws {
        let options = try parse(arguments)
        let (path, temporaryFolder) = try prepareLog(options)
        defer { if let temporaryFolder { try? FileManager.default.removeItem(atPath: temporaryFolder) } }
        let bytes = try fileSize(path)
        let megabytes = Double(bytes) / 1_000_000
        say("nmea: \(path): \(format(megabytes, 1)) MB")

        let rssBefore = maxRSSKilobytes(RUSAGE_SELF.rawValue)
        var best = Double.infinity
        var sentences = 0
        var epochs = 0
        for _ in 0..<options.runs {
            var reader = NMEAFileReader(path: path)
            var fixes = 0
            let seconds = try timed { try reader.read { _ in fixes += 1 } }
            best = min(best, seconds)
            sentences = reader.decoder.statistics.sentences
            epochs = fixes
        }
        let rssAfter = maxRSSKilobytes(RUSAGE_SELF.rawValue)

        var gpsdecodeBest = Double.infinity
        var gpsdecodeStatus: String?
        for _ in 0..<options.gpsdecodeRuns {
            do {
                gpsdecodeBest = min(gpsdecodeBest, try timed { try runGpsdecode(path) })
            } catch {
                gpsdecodeStatus = "\(error)"
                break
            }
        }

        say("  runwalk (release, one core): \(format(best, 3)) s  \(format(Double(sentences) / best / 1e6, 2)) M sentences/s  "
            + "\(format(megabytes / best, 1)) MB/s  (\(sentences) sentences, \(epochs) epochs, best of \(options.runs))")
        if let gpsdecodeStatus {
            say("  gpsdecode: not measured: \(gpsdecodeStatus)")
        } else {
            say("  gpsdecode 3.22 (JSON to /dev/null): \(format(gpsdecodeBest, 3)) s  "
                + "\(format(Double(sentences) / gpsdecodeBest / 1e6, 2)) M sentences/s  "
                + "\(format(megabytes / gpsdecodeBest, 1)) MB/s  (best of \(options.gpsdecodeRuns))")
            say("  ratio: runwalk is \(format(gpsdecodeBest / best, 1))x gpsdecode")
        }
        say("  peak memory (maxrss): runwalk-bench \(rssAfter / 1024) MB (\(rssBefore / 1024) MB before decoding; "
            + "the file is \(Int(megabytes)) MB), gpsdecode \(maxRSSKilobytes(RUSAGE_CHILDREN.rawValue) / 1024) MB")
    }

    static func parse(_ arguments: ArraySlice<String>) throws -> Options {
        var options = Options()
        var rest = arguments
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchError.usage("\(flag) needs a value") }
            switch flag {
            case "--file": options.file = value
            case "--size-mb": options.sizeMegabytes = try positive(value, flag)
            case "--runs": options.runs = try positive(value, flag)
            case "--gpsdecode-runs": options.gpsdecodeRuns = try positive(value, flag)
            default: throw BenchError.usage("unknown option \(flag)")
            }
        }
        return options
    }

    static func positive(_ text: String, _ flag: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw BenchError.usage("\(flag) wants a positive number, not \(text)") }
        return value
    }

    /// The log to decode, and the temporary folder to remove afterwards.
    static func prepareLog(_ options: Options) throws -> (String, String?) {
        if let file = options.file, FileManager.default.fileExists(atPath: file) { return (file, nil) }
        var folder: String?
        let path: String
        if let file = options.file {
            path = file
        } else {
            let dir = NSTemporaryDirectory() + "runwalk-bench-nmea-\(ProcessInfo.processInfo.processIdentifier)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            folder = dir
            path = dir + "/concatenated.nmea"
        }
        let sources = try sourceLogs()
        guard !sources.isEmpty else { throw BenchError.usage("no NMEA logs found (SampleTracks/, ../shared/data/gpsd-logs/)") }
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let out = FileHandle(forWritingAtPath: path) else { throw BenchError.usage("cannot write \(path)") }
        defer { try? out.close() }
        let target = options.sizeMegabytes * 1_000_000
        var written = 0
        while written < target {
            for source in sources {
                let data = try Data(contentsOf: URL(fileURLWithPath: source))
                try out.write(contentsOf: data)
                written += data.count
            }
        }
        say("nmea: built \(path) from \(sources.count) logs")
        return (path, folder)
    }

    /// The shared gpsd logs and the sample tracks, found from the working folder or the source tree.
    static func sourceLogs() throws -> [String] {
        let treeRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        var logs: [String] = []
        for root in [FileManager.default.currentDirectoryPath, treeRoot] {
            for (folder, suffix) in [("/SampleTracks", ".nmea"), ("/../shared/data/gpsd-logs", ".log")] {
                let dir = root + folder
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
                logs += names.filter { $0.hasSuffix(suffix) }.sorted().map { dir + "/" + $0 }
            }
            if !logs.isEmpty { break }
        }
        return logs
    }

    static func runGpsdecode(_ path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsdecode")
        guard let input = FileHandle(forReadingAtPath: path) else { throw BenchError.usage("cannot read \(path)") }
        defer { try? input.close() }
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError.usage("gpsdecode exited \(process.terminationStatus)") }
    }

    static func timed(_ body: () throws -> Void) rethrows -> Double {
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        try body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) * 1e-9
    }

    static func maxRSSKilobytes(_ who: Int32) -> Int {
        var usage = rusage()
        getrusage(who, &usage)
        return usage.ru_maxrss
    }

    static func fileSize(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

    static func say(_ line: String) { print(line) }
}

