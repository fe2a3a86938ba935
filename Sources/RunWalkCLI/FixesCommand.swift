import ArgumentParser
import Foundation
import RunWalkCore
import RunWalkIO

struct FixesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixes",
        abstract: "Decode an NMEA track and print one fix per epoch.",
        discussion: """
            Every NMEA 0183 talker is read; GGA, RMC, GLL, GNS, VTG, GSA, GST, GSV and ZDA merge into \
            one fix per time, as gpsd does. Bad lines are reported on standard error, once per cause \
            with a count at the end.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case jsonl, csv }

    @Argument(help: "NMEA 0183 track file ('-' for standard input).")
    var track: String

    @Option(name: .long, help: "jsonl or csv.")
    var format: Format = .jsonl

    func run() throws {
        // A reader that goes away (`runwalk fixes … | head`) is a write error to report, not a
        // signal that kills the process.
        signal(SIGPIPE, SIG_IGN)
        var reader = NMEAFileReader(path: track, diagnostics: DiagnosticLog(sink: { Terminal.warning($0) }))
        var out = OutputStreamWriter(fd: STDOUT_FILENO, destination: "standard output")
        let csv = format == .csv
        do {
            if csv { try out.write(FixFormat.csvHeader + "\n") }
            // Large reads: the time of a big log goes to the decoder, not to system calls.
            try reader.read(chunkSize: 1 << 20) { fix in
                if csv {
                    try FixLineFormatter.writeCSV(fix, to: &out)
                } else {
                    try FixLineFormatter.writeJSON(fix, to: &out)
                }
            }
            try out.flush()
        } catch let error as InputError {
            throw UserFacingError.input(error.description)
        } catch let error as OutputError {
            throw UserFacingError.runtime(error.description)
        }
        for line in reader.diagnostics.closingLines() { Terminal.warning(line) }
        let stats = reader.decoder.statistics
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
