import ArgumentParser
import Foundation
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
        var reader = TrackFileReader(path: gpx, diagnostics: DiagnosticLog(sink: { Terminal.warning($0) }), trackIndex: trackIndex)
        var segments: [[GPXTrack.Point]] = []
        do {
            try reader.read { fix in
                guard let latitude = fix.latitude, let longitude = fix.longitude else { return }
                if fix.startsSegment || segments.isEmpty { segments.append([]) }
                segments[segments.count - 1].append(GPXTrack.Point(
                    latitude: latitude, longitude: longitude, elevationMetres: fix.altitudeMSL, time: fix.time,
                    speedMetresPerSecond: fix.speedMetresPerSecond, hdop: fix.hdop, line: 0))
            }
        } catch let error as InputError {
            throw UserFacingError.input(error.description)
        } catch let error as TrackFileError {
            throw UserFacingError.input(error.description)
        }
        guard reader.format != .nmea else {
            throw UserFacingError.input("\(gpx): already an NMEA track; 'runwalk replay' reads it as it is")
        }
        let track = GPXTrack(name: nil, segments: segments)
        let converted = NMEAWriter.render(track, source: (gpx as NSString).lastPathComponent,
                                          format: (reader.format?.rawValue ?? "GPX") + (reader.compressed ? " (gzip)" : ""))
        let target = output ?? Self.defaultOutput(for: gpx)
        if target == "-" {
            try Self.writeStandardOutput(converted.text)
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

    /// Writes to standard output with write(2), so a closed pipe or a full disk is an error, not a trap.
    static func writeStandardOutput(_ text: String) throws {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw UserFacingError.runtime("standard output: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }

    /// `run.gpx` → `run.nmea`, `run.fit.gz` → `run.nmea`.
    static func defaultOutput(for path: String) -> String {
        var base = path as NSString
        if base.pathExtension.lowercased() == "gz" { base = base.deletingPathExtension as NSString }
        return base.deletingPathExtension + ".nmea"
    }
}
