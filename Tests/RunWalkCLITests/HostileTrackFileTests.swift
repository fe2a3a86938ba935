import Foundation
import RunWalkTestSupport
import Testing

/// Hostile track files (issue 31): one token of hundreds of megabytes, a FIT bigger than any
/// activity, a gzip bomb. Each ends in bounded memory with one line and exit 2 (or is read).
@Suite("Hostile track files: bounded memory", .serialized)
struct HostileTrackFileTests {
    /// Peak resident memory allowed for any file, in KiB.
    static let memoryLimitKiB = 100 * 1024

    /// `runwalk ARGS` run to the end, with its peak resident memory (getrusage of the waited child,
    /// through the system's python3) and a deadline that fails the test instead of hanging.
    static func measured(_ folder: TemporaryDataFolder, _ arguments: [String], seconds: Int = 120) throws -> (output: RunWalkBinary.Output, peakKiB: Int) {
        let script = """
        import resource, subprocess, sys
        try:
            r = subprocess.run(sys.argv[2:], timeout=float(sys.argv[1]))
            code = r.returncode
        except subprocess.TimeoutExpired:
            code = 124
        sys.stderr.write("PEAK %d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        sys.exit(code if code >= 0 else 128 - code)
        """
        var launch = folder.process(["-c", script, String(seconds), RunWalkBinary.url.path] + arguments)
        launch.executable = "/usr/bin/python3"
        launch.environment["RUNWALK_CONFIG_DIR"] = folder.configURL.path
        var output = try RunWalkBinary.collect(launch)
        var lines = output.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let peakLine = lines.lastIndex(where: { $0.hasPrefix("PEAK ") }), let peak = Int(lines[peakLine].dropFirst(5)) else {
            throw HardeningTestError(message: "no peak: \(output.stderr)")
        }
        lines.remove(at: peakLine)
        output.stderr = lines.joined(separator: "\n")
        return (output, peak)
    }

    /// `count` gzip members of `chunk` after one of `head` and before one of `tail`: a file of a
    /// few KB that decompresses to `count` × `chunk` (zlib reads concatenated members in turn).
    static func gzipRepeated(head: [UInt8], chunk: [UInt8], count: Int, tail: [UInt8]) throws -> Data {
        let member = try gzip(chunk)
        var data = try gzip(head)
        for _ in 0..<count { data += member }
        if !tail.isEmpty { data += try gzip(tail) }
        return data
    }

    static func gzip(_ bytes: [UInt8]) throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-gz-\(UUID().uuidString)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file.appendingPathExtension("gz")) }
        let gzip = try ChildProcess.run("/bin/gzip", ["-1", file.path], seconds: 120)  // replaces the file with FILE.gz
        guard gzip.status == 0 else { throw HardeningTestError(message: "gzip failed: \(gzip.stderr)") }
        return try Data(contentsOf: file.appendingPathExtension("gz"))
    }

    static let megabyteOfA = [UInt8](repeating: 65, count: 1 << 20)

    /// The commands that read a track file, each with `file` in its place.
    static func readers(_ file: String, _ folder: TemporaryDataFolder) -> [[String]] {
        [["fixes", file],
         ["import", file, "-o", folder.url.appendingPathComponent("out.nmea").path],
         ["replay", file, "--workout", "5m run", "--no-record"],
         ["run", "5m run", "--gps", "file:\(file)", "--speed", "1000", "--start", "now", "--voice", "off", "--no-record"]]
    }

    static func expectRefused(_ folder: TemporaryDataFolder, _ file: String, message: String) throws {
        for arguments in readers(file, folder) {
            let (output, peak) = try measured(folder, arguments)
            #expect(output.status == 2, "\(arguments[0]): \(output.status) \(output.stderr.prefix(300))")
            #expect(output.stderr.contains("\(file):\(message)"), "\(arguments[0]): \(output.stderr.prefix(300))")
            if arguments[0] != "run" {  // run's status lines and summary come first
                #expect(output.stderr.split(separator: "\n").count == 1, "\(arguments[0]): \(output.stderr.prefix(600))")
            }
            #expect(peak <= memoryLimitKiB, "\(arguments[0]): peak \(peak) KiB")
            #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("out.nmea").path))
        }
    }

    @Test("a GPX whose <name> holds 150 MB of text (a small .gpx.gz): every reader refuses it at 1 MB, one line, exit 2, under 100 MB")
    func gpxLongText() throws {
        let folder = try TemporaryDataFolder("runwalk-hostile")
        let head = Array("""
        <?xml version="1.0"?>
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
        <trk><name>
        """.utf8)
        let file = folder.url.appendingPathComponent("name.gpx.gz").path
        try Self.gzipRepeated(head: head, chunk: Self.megabyteOfA, count: 150, tail: Array("</name></trk></gpx>\n".utf8))
            .write(to: URL(fileURLWithPath: file))
        try Self.expectRefused(folder, file, message: "line 3: text longer than 1 MB")
    }

    @Test("a TCX whose attribute value never ends (150 MB), and a GPX comment that never ends: refused at 1 MB, under 100 MB")
    func tcxLongAttributeAndComment() throws {
        let folder = try TemporaryDataFolder("runwalk-hostile")
        let tcx = folder.url.appendingPathComponent("attr.tcx.gz").path
        try Self.gzipRepeated(head: Array("<TrainingCenterDatabase>\n<Activities><Activity Sport=\"".utf8), chunk: Self.megabyteOfA,
                         count: 150, tail: Array("\"></Activity></Activities></TrainingCenterDatabase>\n".utf8))
            .write(to: URL(fileURLWithPath: tcx))
        let (output, peak) = try Self.measured(folder, ["fixes", tcx])
        #expect(output.status == 2)
        #expect(output.stderr == "runwalk: error: \(tcx):line 2: tag longer than 1 MB\n")
        #expect(peak <= Self.memoryLimitKiB, "peak \(peak) KiB")

        let gpx = folder.url.appendingPathComponent("comment.gpx.gz").path
        try Self.gzipRepeated(head: Array("<gpx version=\"1.1\">\n<!-- ".utf8), chunk: Self.megabyteOfA, count: 150, tail: [])
            .write(to: URL(fileURLWithPath: gpx))
        let comment = try Self.measured(folder, ["fixes", gpx])
        #expect(comment.output.status == 2)
        #expect(comment.output.stderr == "runwalk: error: \(gpx):line 2: comment longer than 1 MB\n")
        #expect(comment.peakKiB <= Self.memoryLimitKiB, "peak \(comment.peakKiB) KiB")
    }

    /// FIT header (14 bytes, no header CRC) announcing `dataSize` bytes of data.
    static func fitHeader(dataSize: Int) -> [UInt8] {
        [14, 0x20, 0x54, 0x08] + (0..<4).map { UInt8(truncatingIfNeeded: dataSize >> (8 * $0)) } + Array(".FIT".utf8) + [0, 0]
    }

    @Test("a .fit.gz bomb (a header announcing 120 MB of data, then zeros): refused with one line, exit 2, under 100 MB")
    func fitBomb() throws {
        let folder = try TemporaryDataFolder("runwalk-hostile")
        let file = folder.url.appendingPathComponent("bomb.fit.gz").path
        try Self.gzipRepeated(head: Self.fitHeader(dataSize: 120 << 20), chunk: [UInt8](repeating: 0, count: 1 << 20), count: 120, tail: [1, 2])
            .write(to: URL(fileURLWithPath: file))
        let (output, peak) = try Self.measured(folder, ["fixes", file])
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("runwalk: error: \(file):byte \(14 + (120 << 20)): file CRC is 0x0201"), "\(output.stderr)")
        #expect(peak <= Self.memoryLimitKiB, "peak \(peak) KiB")
    }

    @Test("a 120 MB FIT (points, then messages RunWalk does not read), its CRC cut off: streamed under 100 MB, read with a warning")
    func bigFIT() throws {
        let folder = try TemporaryDataFolder("runwalk-hostile")
        // Local 0: records (timestamp, lat, long); local 1: a message of global 0xFF00 with 255
        // fields of 255 bytes (65 KB, the largest a definition allows).
        var head: [UInt8] = [0x40, 0, 0, 20, 0, 3, 253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85]
        for t in 0..<120 {
            let values = [UInt32(1_100_000_000 + t), UInt32(bitPattern: Int32(565_000_000 + 400 * t)), UInt32(101_900_000)]
            head += [0] + values.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        }
        head += [0x41, 0, 0, 0x00, 0xFF, 255] + (0..<255).flatMap { [UInt8($0), 255, 0x0D] }
        let record = [UInt8(1)] + [UInt8](repeating: 7, count: 255 * 255)
        let chunk = Array([[UInt8]](repeating: record, count: 16).joined())
        let count = 120 * (1 << 20) / chunk.count
        let file = folder.url.appendingPathComponent("big.fit.gz").path
        try Self.gzipRepeated(head: Self.fitHeader(dataSize: head.count + chunk.count * count) + head, chunk: chunk, count: count, tail: [])
            .write(to: URL(fileURLWithPath: file))
        let (output, peak) = try Self.measured(folder, ["fixes", file], seconds: 300)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n").count == 120)
        #expect(output.stderr.contains("the file ends without its 2-byte CRC"), "\(output.stderr)")
        #expect(peak <= Self.memoryLimitKiB, "peak \(peak) KiB")
    }
}

/// A slow pipe (issue 31): `fixes -` and `replay -` used to wait for 1 MiB before reading.
@Suite("Track input from a slow pipe")
struct SlowPipeTests {
    @Test("fixes - prints the first fixes while the pipe stays open, not after 1 MiB or its end")
    func fixesFromSlowPipe() throws {
        let folder = try TemporaryDataFolder("runwalk-hostile")
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        var launch = folder.process(["fixes", "-"])
        launch.standardInput = .descriptor(ends[0])
        let child = try launch.start()
        close(ends[0])
        var writer = ends[1]
        defer {
            if writer >= 0 { close(writer) }
            child.stop(graceSeconds: 0)
        }
        // Ten epochs of a sample track (RMC and GGA each), then nothing: the writer keeps the pipe open.
        let track = try String(contentsOf: RunWalkBinary.repositoryRoot.appendingPathComponent(Sample.demo), encoding: .utf8)
        let sentences = track.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$") }.prefix(20)
        let bytes = Array((sentences.joined(separator: "\n") + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
        // The first fixes come out within the deadline (the decoder holds the last epochs back a little,
        // for sentences that arrive out of order).
        var received = Array(child.stdoutData)
        let deadline = Date().addingTimeInterval(15)
        while received.filter({ $0 == 10 }).count < 3, Date() < deadline, child.isRunning {
            usleep(20_000)
            received = Array(child.stdoutData)
        }
        #expect(received.filter { $0 == 10 }.count >= 3, "only \(received.count) bytes before the deadline, with the pipe open")
        #expect(child.isRunning, "fixes ended with its input still open: \(child.stderr)")
        close(writer)
        writer = -1
    }
}
