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
        var reader = NMEAFileReader(path: track, diagnostics: DiagnosticLog(sink: { Terminal.warning($0) }))
        var out = BufferedOutput()
        if format == .csv { try out.write(FixFormat.csvHeader) }
        do {
            try reader.read { fix in
                try out.write(format == .jsonl ? FixFormat.jsonLine(fix) : FixFormat.csvLine(fix))
            }
        } catch let error as InputError {
            throw UserFacingError.input(error.description)
        }
        try out.flush()
        for line in reader.diagnostics.closingLines() { Terminal.warning(line) }
        let stats = reader.decoder.statistics
        Terminal.warning("\(track): \(stats.epochs) epochs from \(stats.sentences) sentences in \(stats.lines) lines; "
            + "\(stats.linesBad) bad, \(stats.skipped) skipped")
    }
}

/// Batches standard output writes; throws once standard output fails, so decoding stops.
struct BufferedOutput {
    private var buffer = ""

    mutating func write(_ line: String) throws {
        buffer += line
        buffer += "\n"
        if buffer.utf8.count > 1 << 16 { try flush() }
    }

    mutating func flush() throws {
        try Terminal.write(Array(buffer.utf8))
        buffer = ""
    }
}
