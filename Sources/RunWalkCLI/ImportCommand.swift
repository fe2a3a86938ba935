import ArgumentParser
import Foundation
import RunWalkCore
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
        guard let data = FileManager.default.contents(atPath: gpx) else {
            throw UserFacingError.input(FileManager.default.fileExists(atPath: gpx) ? "\(gpx): cannot read" : "\(gpx): no such file")
        }
        let track: GPXTrack
        do {
            track = try GPXReader.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw UserFacingError.input("\(gpx): \(error.description)")
        }
        let converted = NMEAWriter.render(track, source: (gpx as NSString).lastPathComponent)
        let target = output ?? ((gpx as NSString).deletingPathExtension + ".nmea")
        if target == "-" {
            FileHandle.standardOutput.write(Data(converted.text.utf8))
        } else {
            if !force && FileManager.default.fileExists(atPath: target) {
                throw UserFacingError.input("\(target) exists; use --force to overwrite it or -o to choose another file")
            }
            guard FileManager.default.createFile(atPath: target, contents: Data(converted.text.utf8)) else {
                throw UserFacingError.runtime("\(target): cannot write")
            }
        }
        var note = "imported \(converted.epochs) points in \(track.segments.count) segment(s)"
        if converted.droppedPoints > 0 { note += ", dropped \(converted.droppedPoints) whose time did not advance" }
        if target != "-" { note += " → \(target)" }
        Terminal.warning(note)
    }
}
