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

/// `runwalk export [SESSION|last] --format gpx|tcx|fit [-o FILE]`: a recorded session as a
/// file other apps (Strava, Garmin Connect, GoldenCheetah, Runalyze) accept.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a recorded session as GPX, TCX or FIT.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case gpx, tcx, fit }

    @Argument(help: "Session number (from `runwalk history`) or `last`.")
    var session: String = "last"

    @Option(name: .long, help: "gpx (GPX 1.1), tcx (Training Center) or fit (FIT activity).")
    var format: Format

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func validate() throws {
        if format == .fit, output == nil, isatty(STDOUT_FILENO) == 1 {
            throw ValidationError("FIT is binary: give -o FILE (or redirect standard output)")
        }
    }

    func run() throws {
        let recorded = try StoreAccess.loadRecorded(session)
        let bytes: [UInt8]
        switch format {
        case .gpx: bytes = Array(GPXWriter.render(recorded).utf8)
        case .tcx: bytes = Array(TCXWriter.render(recorded).utf8)
        case .fit: bytes = FITActivityWriter.render(recorded)
        }
        try ReportOutput.write(bytes, to: output)
    }
}

/// Writes a rendered report or export to a file (`-o`), or to standard output (no `-o`, or `-o -`).
///
/// New files are 0600: a report or an export holds a GPS track (where the runner lives), so it
/// is private until the user decides otherwise; an existing file keeps its mode.
enum ReportOutput {
    static func write(_ bytes: [UInt8], to path: String?, newFileMode: mode_t = PrivateFolder.fileMode) throws {
        guard let path, !Terminal.isStandardOutput(path) else {
            try Terminal.write(bytes)
            return
        }
        do {
            try OutputFile.write(bytes, to: path, newFileMode: newFileMode)
        } catch {
            throw UserFacingError.runtime(error.description)
        }
    }
}
