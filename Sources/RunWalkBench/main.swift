import Foundation

// Release-mode benchmarks; each subcommand measures RunWalk against a peer in the same run.
// Each benchmark lives in its own file and registers here by name.
let benchmarks: [String: (ArraySlice<String>) throws -> Void] = [
    "store": StoreBenchmark.run,
    "nmea": NMEABenchmark.run,
    "fixes": FixesBenchmark.run,
    "parity": ParityBenchmark.run,
    "voice": VoiceBenchmark.run,
    "accuracy": AccuracyBenchmark.run,
    "exports": ExportBenchmark.run,
    "tracks": TracksBenchmark.run,
    "replay": ReplayBenchmark.run,
    "footprint": FootprintBenchmark.run,
]

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let benchmark = benchmarks[name] else {
    let known = benchmarks.keys.sorted().joined(separator: ", ")
    BenchLog.error("usage: runwalk-bench <\(known.isEmpty ? "none yet" : known)> [options]")
    exit(2)
}
do {
    try benchmark(arguments.dropFirst())
} catch {
    BenchLog.error("runwalk-bench \(name): \(error)")
    exit(1)
}
