import ArgumentParser
import Foundation
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

/// Writes a rendered report or export to a file, or to standard output.
enum ReportOutput {
    static func write(_ bytes: [UInt8], to path: String?) throws {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw UserFacingError.runtime("\(path): cannot write: \(error.localizedDescription)")
        }
    }
}
