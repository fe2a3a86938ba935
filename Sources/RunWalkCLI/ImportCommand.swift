import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore
import RunWalkIO
import RunWalkReport
import RunWalkTracks

/// `runwalk import FILE`: converts a GPX, TCX or FIT track (plain or gzip-compressed) from
/// another device into an NMEA log that `runwalk replay` runs against any workout.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert a recorded GPX, TCX or FIT track into an NMEA track file for 'runwalk replay'.",
        discussion: """
            Writes one RMC and one GGA sentence per point (speed and course derived from \
            neighbouring points unless the file's own speed agrees with the positions). Points \
            need a time. The format is read from the content; gzip-compressed files are read as \
            they are. ('runwalk replay' also reads these files directly.) Then: runwalk replay FILE.nmea --workout SPEC
            """)

    @Argument(help: "GPX 1.0/1.1, TCX or FIT file (or any of them gzip-compressed).")
    var gpx: String

    @Option(name: [.short, .long], help: "Output NMEA file ('-' for standard output); default: the input path with .nmea.")
    var output: String?

    @Option(name: .customLong("track"), help: "Of a file with several tracks (activities), read only the Nth (default: all).")
    var trackIndex: Int?

    @Flag(name: .long, help: "Overwrite the output file if it exists.")
    var force = false

    func validate() throws {
        if let trackIndex, trackIndex < 1 { throw ValidationError("--track counts from 1, not \(trackIndex)") }
    }

    func run() throws {
        // The source first: a missing or unreadable file is an input error before any output.
        if gpx != "-" {
            do { _ = try ByteSource(path: gpx) } catch { throw UserFacingError.input(UserText.printable(error.description, limit: 400)) }
        }
        let target = output ?? Self.defaultOutput(for: gpx)
        // `-` and `/dev/stdout` go through the one writer of standard output, which reports a
        // closed or failing one once (reopening /dev/stdout would find /dev/null behind `>&-`).
        let toStandardOutput = Terminal.isStandardOutput(target)
        // Only a regular file is "overwritten"; a FIFO or a device (/dev/stdout) is written into.
        var info = stat()
        let exists = !toStandardOutput && stat(target, &info) == 0
        let regular = exists && (info.st_mode & S_IFMT) == S_IFREG
        if regular, !force {
            throw UserFacingError.input("\(UserText.path(target)) exists; use --force to overwrite it or -o to choose another file")
        }
        // Written as it is read (constant memory), into a temporary file renamed at the end, so
        // a file that turns out unreadable halfway leaves nothing behind. The track is the
        // runner's whereabouts: a new file is 0600, an existing one keeps its mode.
        let temporary = toStandardOutput || (exists && !regular) ? nil : target + ".part-\(getpid())"
        let mode: mode_t = regular ? info.st_mode & 0o7777 : 0o600
        let fd: Int32
        if let temporary {
            fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
            if fd >= 0 { fchmod(fd, mode) }
        } else {
            fd = toStandardOutput ? STDOUT_FILENO : open(target, O_WRONLY | O_CLOEXEC)
        }
        guard fd >= 0 else { throw UserFacingError.runtime("\(UserText.path(target)): cannot write: \(String(cString: strerror(errno)))") }
        var finished = false
        defer {
            if fd != STDOUT_FILENO { close(fd) }
            if let temporary, !finished { unlink(temporary) }
        }
        var reader = TrackFileReader(path: gpx, diagnostics: DiagnosticLog(sink: { Terminal.warning($0) }), trackIndex: trackIndex)
        var writer = NMEAStreamWriter()
        var pending = ""
        var headerWritten = false
        var withHeartRate = 0
        func flush() throws {
            if toStandardOutput {
                try Terminal.write(Array(pending.utf8))
            } else {
                try Self.write(pending, to: fd, name: target)
            }
            pending = ""
        }
        do {
            try reader.read { fix in
                if !headerWritten {
                    headerWritten = true
                    pending += NMEAWriter.header(source: Self.fileName(gpx), format: "track file")
                }
                guard let latitude = fix.latitude, let longitude = fix.longitude else { return }
                if fix.heartRateBPM != nil { withHeartRate += 1 }
                let point = GPXTrack.Point(latitude: latitude, longitude: longitude, elevationMetres: fix.altitudeMSL, time: fix.time,
                                           speedMetresPerSecond: fix.speedMetresPerSecond, hdop: fix.hdop, line: 0)
                pending += writer.add(point, startsSegment: fix.startsSegment)
                if pending.utf8.count >= 1 << 16 { try flush() }
            }
        } catch let error as InputError {
            throw UserFacingError.input(UserText.printable(error.description, limit: 400))
        } catch let error as TrackFileError {
            throw UserFacingError.input(UserText.printable(error.description, limit: 400))
        }
        pending += writer.finish()
        guard writer.epochs > 0 else {
            // Importing nothing is an error: no empty file is written, and --force keeps the old one.
            let what = reader.format.map { "\($0.rawValue) " } ?? ""
            throw UserFacingError.input(UserText.printable("\(UserText.path(gpx)): no \(what)points with a time and a position: nothing imported", limit: 400))
        }
        try flush()
        if let temporary {
            guard rename(temporary, target) == 0 else {
                throw UserFacingError.runtime("\(target): cannot write: \(String(cString: strerror(errno)))")
            }
            finished = true
        }
        var note = "imported \(writer.epochs) points in \(writer.segments) segment(s)"
        if writer.droppedPoints > 0 { note += ", dropped \(writer.droppedPoints) whose time did not advance" }
        if !toStandardOutput { note += " → \(target)" }
        Terminal.warning(note)
        // NMEA 0183 has no heart-rate sentence: the file itself is what keeps it (issue 32).
        if withHeartRate > 0 {
            Terminal.warning("warning: \(UserText.path(gpx)): the heart rate of \(withHeartRate) point(s) is not in the NMEA file; "
                             + "replay the original file (runwalk replay \(UserText.path(gpx)) --workout SPEC) to keep it")
        }
    }

    /// Writes with write(2), so a closed pipe or a full disk is an error, not a trap.
    static func write(_ text: String, to fd: Int32, name: String) throws {
        if let code = DescriptorWriter.write(text.utf8, to: fd) {
            throw UserFacingError.runtime("cannot write \(UserText.path(name)): \(DescriptorWriter.reason(code))")
        }
    }

    /// `run.gpx` → `run.nmea`, `run.fit.gz` → `run.nmea`.
    static func defaultOutput(for path: String) -> String {
        var base = path
        if splitExtension(base).extension.lowercased() == "gz" { base = splitExtension(base).base }
        return splitExtension(base).base + ".nmea"
    }

    /// The last component of `path` (`tracks/run.gpx` → `run.gpx`).
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `path` without its last extension, and the extension (`run.fit.gz` → `run.fit`, `gz`);
    /// a dot that begins the file's name starts no extension.
    static func splitExtension(_ path: String) -> (base: String, extension: String) {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[nameStart...].lastIndex(of: "."), dot > nameStart else { return (path, "") }
        return (String(path[..<dot]), String(path[path.index(after: dot)...]))
    }
}
