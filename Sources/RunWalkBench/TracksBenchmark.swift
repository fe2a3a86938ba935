import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkReport
import RunWalkTracks

/// `runwalk-bench tracks [TRACK] [--workout SPEC] [--repeat N] [--gpx-mb N]`: how fast
/// `TrackFileReader` reads GPX, TCX and FIT (plain and gzip) exported from one recorded
/// session (default: the 10 Hz trail, about 28 000 points), against libxml2 (`xmllint
/// --timing`) on the XML files and Garmin's Python FIT SDK on the FIT file; then the peak
/// memory of a child process reading a large generated GPX, against the file's size.
enum TracksBenchmark {
    static func run(_ arguments: ArraySlice<String>) throws {
        var track = "SampleTracks/trail-10hz.nmea", spec = "10x(400m run, 200m walk)", repeats = 5, largeMB = 100
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "--workout": spec = rest.popFirst() ?? spec
            case "--repeat": repeats = rest.popFirst().flatMap(Int.init) ?? repeats
            case "--gpx-mb": largeMB = rest.popFirst().flatMap(Int.init) ?? largeMB
            case "--read-only":
                // The child of the memory measurement: read one file, print the fix count.
                guard let path = rest.popFirst() else { throw BenchError.usage("--read-only FILE") }
                var reader = TrackFileReader(path: path)
                var count = 0
                try reader.read { _ in count += 1 }
                print(count, peakResidentKilobytes())
                return
            default: track = argument
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-bench-tracks-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var points: [TrackPoint] = []
        let result = try BenchReplay.run(path: track, workout: try Workout(parsing: spec)) { event in
            if case .trackPoint(let point) = event { points.append(point) }
        }
        let session = RecordedSession(summary: result.summary, track: points)
        let files: [(String, [UInt8])] = [
            ("run.gpx", Array(GPXWriter.render(session).utf8)),
            ("run.tcx", Array(TCXWriter.render(session).utf8)),
            ("run.fit", FITActivityWriter.render(session)),
        ]
        var paths: [String] = []
        for (name, bytes) in files {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try runTool("/bin/gzip", ["-k", path])
            paths += [path, path + ".gz"]
        }
        print("tracks: \(track) exported, \(points.count) points; TrackFileReader, best of \(repeats)")
        print("file            bytes      ms    points/s    MB/s   fixes")
        for path in paths {
            var best = Double.infinity, fixes = 0
            for _ in 0..<repeats {
                var reader = TrackFileReader(path: path)
                var count = 0
                let seconds = try NMEABenchmark.timed { try reader.read { _ in count += 1 } }
                best = min(best, seconds)
                fixes = count
            }
            let size = try NMEABenchmark.fileSize(path)
            let name = (path as NSString).lastPathComponent
            print(name.padding(toLength: 12, withPad: " ", startingAt: 0)
                  + String(format: "%9d %7.1f %11.0f %7.1f %7d", size, best * 1000, Double(fixes) / best, Double(size) / best / 1e6, fixes))
        }
        for name in ["run.gpx", "run.tcx"] {
            let output = try? runTool("/usr/bin/xmllint", ["--noout", "--timing", folder.appendingPathComponent(name).path])
            let line = output?.split(separator: "\n").first { $0.hasPrefix("Parsing took") } ?? "not available"
            print("peer: xmllint (libxml2) \(name): \(line)")
        }
        let python = """
        import sys, time
        from garmin_fit_sdk import Decoder, Stream
        best = 1e9
        for _ in range(\(repeats)):
            t = time.perf_counter(); m, e = Decoder(Stream.from_file(sys.argv[1])).read(); best = min(best, time.perf_counter() - t)
        print("%.1f ms, %d records" % (best * 1000, len(m.get("record_mesgs", []))))
        """
        let garmin = try? runTool("/usr/bin/env", ["python3", "-c", python, folder.appendingPathComponent("run.fit").path])
        print("peer: Garmin FIT SDK (Python) run.fit: \(garmin?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "not available")")

        let large = folder.appendingPathComponent("large.gpx").path
        try writeLargeGPX(large, megabytes: largeMB)
        let small = folder.appendingPathComponent("run.gpx").path
        let baseline = try childMaxRSS(reading: small)
        let reading = try childMaxRSS(reading: large)
        let size = try NMEABenchmark.fileSize(large)
        print("memory: reading a \(size / 1_000_000) MB GPX (\(reading.fixes) points) in a child process: peak resident (VmHWM) \(reading.kilobytes / 1024) MB "
              + "(\(baseline.kilobytes / 1024) MB reading the \(try NMEABenchmark.fileSize(small) / 1_000_000) MB one); "
              + String(format: "%.2f× the file's size", Double(reading.kilobytes * 1024) / Double(size)))
    }

    /// Runs a tool to the end; its standard output and error together.
    @discardableResult
    static func runTool(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let text = String(decoding: readToEnd(pipe.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError.usage("\(tool) exited \(process.terminationStatus): \(text)") }
        return text
    }

    /// This process's peak resident memory (VmHWM): that of its own address space, unlike
    /// `ru_maxrss`, which on Linux keeps the parent's peak across a vfork + exec.
    static func peakResidentKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    /// Peak memory of a child `runwalk-bench tracks --read-only FILE`, and the fixes it read.
    static func childMaxRSS(reading path: String) throws -> (kilobytes: Int, fixes: Int) {
        var pid: pid_t = 0
        let executable = CommandLine.arguments[0]
        let out = Pipe()
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out.fileHandleForWriting.fileDescriptor, STDOUT_FILENO)
        let words: [String] = [executable, "tracks", "--read-only", path]
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { throw BenchError.usage("cannot start \(executable)") }
        try out.fileHandleForWriting.close()
        let text = String(decoding: readToEnd(out.fileHandleForReading), as: UTF8.self)
        var status: Int32 = 0
        guard waitpid(pid, &status, 0) == pid, status == 0 else { throw BenchError.usage("the reading child failed (status \(status))") }
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        guard numbers.count == 2 else { throw BenchError.usage("the reading child printed \(text)") }
        return (numbers[1], numbers[0])
    }

    /// A GPX of about `megabytes` MB: one track at 1 Hz, written in chunks (never whole in memory).
    static func writeLargeGPX(_ path: String, megabytes: Int) throws {
        guard let file = fopen(path, "w") else { throw BenchError.usage("cannot write \(path)") }
        defer { fclose(file) }
        func put(_ text: String) throws {
            let ok = text.utf8CString.withUnsafeBufferPointer { fputs($0.baseAddress, file) >= 0 }
            if !ok { throw BenchError.usage("cannot write \(path)") }
        }
        try put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"runwalk-bench\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg>\n")
        let start = UTCTime(year: 2026, month: 4, day: 12, secondsOfDayMilli: 0)
        var written = 0, t = 0
        var chunk = ""
        while written < megabytes * 1_000_000 {
            let time = UTCTime(milliseconds: start.milliseconds + Int64(t) * 1000).iso8601(fractionDigits: 0)
            let line = "<trkpt lat=\"\(String(format: "%.7f", 47.37 + 0.00001 * Double(t % 50_000)))\" lon=\"8.5400000\"><ele>410.0</ele><time>\(time)</time></trkpt>\n"
            chunk += line
            written += line.utf8.count
            t += 1
            if chunk.utf8.count > 1 << 20 { try put(chunk); chunk = "" }
        }
        try put(chunk + "</trkseg></trk>\n</gpx>\n")
    }
}
