import Foundation
import RunWalkCore
import RunWalkIO
import RunWalkReport
import RunWalkTracks

/// `runwalk-bench exports [TRACK] [--workout SPEC] [--repeat N]`: how long each renderer takes
/// for one recorded session (default: the 10 Hz trail, about 28 000 track points), and our
/// track file reader on the exported GPX against libxml2's parser (`xmllint --timing`) on the same file.
enum ExportBenchmark {
    static func run(_ arguments: ArraySlice<String>) throws {
        var track = "SampleTracks/trail-10hz.nmea", spec = "10x(400m run, 200m walk)", repeats = 20
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "--workout": spec = rest.popFirst() ?? spec
            case "--repeat": repeats = rest.popFirst().flatMap(Int.init) ?? repeats
            default: track = argument
            }
        }
        let workout = try Workout(parsing: spec)
        var points: [TrackPoint] = []
        let result = try BenchReplay.run(path: track, workout: workout) { event in
            if case .trackPoint(let point) = event { points.append(point) }
        }
        let session = RecordedSession(summary: result.summary, track: points)
        print("session: \(track), \(points.count) track points, \(session.summary.phases.count) phases; median of \(repeats) runs")
        print("renderer      median ms   output bytes")
        var gpxText = ""
        func measure(_ name: String, _ body: () -> Int) {
            var times: [Double] = []
            var size = 0
            for _ in 0..<repeats {
                let start = DispatchTime.now().uptimeNanoseconds
                size = body()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            times.sort()
            print(name.padding(toLength: 12, withPad: " ", startingAt: 0) + String(format: "%11.2f %14d", times[times.count / 2], size))
        }
        measure("html") { HTMLReport.render(session).utf8.count }
        measure("gpx") { gpxText = GPXWriter.render(session); return gpxText.utf8.count }
        measure("tcx") { TCXWriter.render(session).utf8.count }
        measure("fit") { FITActivityWriter.render(session).count }
        // Our track file reader (as `replay` and `import` read a GPX) against libxml2 on the same file.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-bench-\(getpid()).gpx")
        try gpxText.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var readBack: [GPXTrack.Point] = []
        measure("gpx-read") {
            var reader = TrackFileReader(path: file.path)
            var points: [GPXTrack.Point] = []
            try? reader.read { fix in
                guard let latitude = fix.latitude, let longitude = fix.longitude else { return }
                points.append(GPXTrack.Point(latitude: latitude, longitude: longitude, elevationMetres: fix.altitudeMSL,
                                             time: fix.time, speedMetresPerSecond: fix.speedMetresPerSecond, hdop: fix.hdop))
            }
            readBack = points
            return points.count
        }
        let readTrack = GPXTrack(name: nil, segments: [readBack])
        measure("gpx-to-nmea") { NMEAWriter.render(readTrack, source: "bench.gpx").text.utf8.count }

        // Peer: libxml2 parsing the same GPX (its own timing, without process start-up).
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        process.arguments = ["--noout", "--timing", file.path]
        let pipe = Pipe()
        process.standardError = pipe
        do {
            try process.run()
            let text = String(decoding: readToEnd(pipe.fileHandleForReading), as: UTF8.self)
            process.waitUntilExit()
            let parsing = text.split(separator: "\n").first { $0.hasPrefix("Parsing took") } ?? "no timing line"
            print("peer: xmllint (libxml2) on the same GPX: \(parsing)")
        } catch {
            print("peer: xmllint not available (\(error))")
        }
    }
}
