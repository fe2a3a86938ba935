import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkCore
import RunWalkIO
import RunWalkTracks

struct FixesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixes",
        abstract: "Decode a track (NMEA, GPX, TCX or FIT) and print one fix per epoch.",
        discussion: """
            Every NMEA 0183 talker is read; GGA, RMC, GLL, GNS, VTG, GSA, GST, GSV and ZDA merge into \
            one fix per time, as gpsd does. GPX 1.0/1.1, TCX and FIT activity files (plain or gzip) \
            are read as replay reads them, told apart by content. Bad lines are reported on standard \
            error, once per cause with a count at the end.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case jsonl, csv }

    @Argument(help: "Track file: NMEA 0183, GPX, TCX or FIT, plain or gzip ('-' for standard input).")
    var track: String

    @Option(name: .long, help: "jsonl or csv.")
    var format: Format = .jsonl

    @Option(name: .customLong("track"), help: "Of a GPX (TCX) file with several tracks (activities), read only the Nth (default: all, each a new segment).")
    var trackIndex: Int?

    func validate() throws {
        if let trackIndex, trackIndex < 1 { throw ValidationError("--track counts from 1, not \(trackIndex)") }
    }

    func run() throws {
        // A reader that goes away (`runwalk fixes … | head`) is a write error to report, not a
        // signal that kills the process.
        signal(SIGPIPE, SIG_IGN)
        var reader = TrackFileReader(path: track, diagnostics: DiagnosticLog(sink: { Terminal.warning($0) }), trackIndex: trackIndex)
        // Large reads: the time of a big log goes to the decoder, not to system calls.
        reader.chunkSize = 1 << 20
        let output = Output(OutputStreamWriter(fd: STDOUT_FILENO, destination: "standard output"))
        // A slow pipe (`tail -f log | runwalk fixes -`): each fix is seen before the next read waits.
        reader.beforeWaiting = { try output.out.flush() }
        let csv = format == .csv
        do {
            if csv { try output.out.write(FixFormat.csvHeader + "\n") }
            try reader.read { fix in
                if csv {
                    try FixLineFormatter.writeCSV(fix, to: &output.out)
                } else {
                    try FixLineFormatter.writeJSON(fix, to: &output.out)
                }
            }
            try output.out.flush()
        } catch let error as InputError {
            throw UserFacingError.input(error.description)
        } catch let error as TrackFileError {
            throw UserFacingError.input(error.description)
        } catch let error as OutputError {
            throw UserFacingError.runtime(error.description)
        }
        for line in reader.diagnostics.closingLines() { Terminal.warning(line) }
        if reader.format != .nmea {
            // GPX, TCX and FIT: their warnings were said as the reading ended; no sentences to count.
            Terminal.warning("\(track): \(reader.epochs) points from a \(reader.format?.rawValue ?? "track") file\(reader.compressed ? " (gzip)" : "")")
            return
        }
        let stats = reader.statistics
        var counts = "\(stats.linesBad) bad, \(stats.skipped) skipped"
        // What was read but is not in the output, said only when it happened.
        if stats.epochsInvalid > 0 { counts += ", \(stats.epochsInvalid) epochs without a valid fix (no position)" }
        let late = stats.epochsLate + stats.problems[.late, default: 0]
        if late > 0 { counts += ", \(late) late sentences or epoch parts dropped" }
        if stats.junkBytes > 0 { counts += ", \(stats.junkBytes) junk bytes" }
        Terminal.warning("\(track): \(stats.epochs) epochs from \(stats.sentences) sentences in \(stats.lines) lines; "
            + counts)
    }
}

/// The output writer, shared by the fix callback and the flush before a pipe read waits.
private final class Output {
    var out: OutputStreamWriter
    init(_ out: consuming OutputStreamWriter) { self.out = out }
}
