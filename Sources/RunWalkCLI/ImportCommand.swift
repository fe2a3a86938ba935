import ArgumentParser
import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkReport

/// `runwalk import FILE.gpx`: converts a GPX track from another device into an NMEA log
/// that `runwalk replay` runs against any workout.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert a recorded GPX track into an NMEA track file for 'runwalk replay'.",
        discussion: """
            Writes one RMC and one GGA sentence per GPX point (speed and course derived from \
            neighbouring points). Every point needs a <time>. Then: runwalk replay FILE.nmea --workout SPEC
            """)

    @Argument(help: "GPX 1.0 or 1.1 file with a track (or a timed route).")
    var gpx: String

    @Option(name: [.short, .long], help: "Output NMEA file ('-' for standard output); default: the GPX path with .nmea.")
    var output: String?

    @Flag(name: .long, help: "Overwrite the output file if it exists.")
    var force = false

    func run() throws {
        let data: [UInt8]
        do { data = try ByteSource.contents(of: gpx, limit: Self.maximumBytes) } catch {
            throw UserFacingError.input(error.description)
        }
        let track: GPXTrack
        do {
            track = try GPXReader.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw UserFacingError.input("\(UserText.path(gpx)): \(error.description)")
        }
        let converted = NMEAWriter.render(track, source: (gpx as NSString).lastPathComponent)
        let target = output ?? ((gpx as NSString).deletingPathExtension + ".nmea")
        if target != "-", !force, Self.isRegularFile(target) {
            throw UserFacingError.input("\(UserText.path(target)) exists; use --force to overwrite it or -o to choose another file")
        }
        // The track is the runner's whereabouts: a new file is 0600 (ReportOutput).
        try ReportOutput.write(Array(converted.text.utf8), to: target)
        var note = "imported \(converted.epochs) points in \(track.segments.count) segment(s)"
        if converted.droppedPoints > 0 { note += ", dropped \(converted.droppedPoints) whose time did not advance" }
        if target != "-" { note += " → \(UserText.path(target))" }
        Terminal.warning(note)
    }

    /// A GPX file larger than this is refused before it is read whole (`/dev/zero`).
    static let maximumBytes = 1 << 30

    /// Only a regular file is "overwritten"; a FIFO or a device (`/dev/stdout`) is written into.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
