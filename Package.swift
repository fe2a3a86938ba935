// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RunWalk",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "runwalk", targets: ["RunWalkCLI"]),
        .executable(name: "runwalk-bench", targets: ["RunWalkBench"]),
        .library(name: "RunWalkCore", targets: ["RunWalkCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // Pure logic: no I/O, no wall clock, no globals.
        .target(name: "RunWalkCore"),
        // The one session loop: a location source, a clock and commands in; status and events out.
        .target(name: "RunWalkRuntime", dependencies: ["RunWalkCore"]),
        // Files, standard streams and the replay pipeline around the core.
        .target(name: "RunWalkIO", dependencies: ["RunWalkCore"]),
        // libgps (gpsd's client library); imported only by RunWalkGPS.
        .systemLibrary(name: "CLibGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        // zlib, for gzip-compressed track files; imported only by RunWalkTracks.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Track files of every kind (NMEA, GPX, TCX, FIT, gzip-compressed) read into fixes.
        .target(name: "RunWalkTracks", dependencies: ["RunWalkCore", "RunWalkIO", "CZlib"]),
        // Live location sources (gpsd, track file, serial device) and the live run loop.
        .target(name: "RunWalkGPS", dependencies: ["RunWalkCore", "RunWalkIO", "RunWalkTracks", "CLibGPS"]),
        // Pure renderers: reports (HTML) and exports (GPX, TCX, FIT), GPX import; no I/O.
        .target(name: "RunWalkReport", dependencies: ["RunWalkCore"]),
        // Real gpsd daemons, pseudo-terminals and free ports for the integration tests.
        .target(name: "RunWalkTestSupport", path: "Tests/Support/RunWalkTestSupport"),
        // The session store: SQLite (WAL) through GRDB, the recorder, recovery and history.
        .target(
            name: "RunWalkStore",
            dependencies: ["RunWalkCore", "RunWalkIO", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // espeak-ng's C API (libespeak-ng-dev); only RunWalkSpeech imports it.
        .systemLibrary(name: "CEspeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        // PulseAudio's simple API for the speaker (libpulse-dev); only RunWalkSpeech imports it.
        .systemLibrary(name: "CPulseSimple", pkgConfig: "libpulse-simple", providers: [.apt(["libpulse-dev"])]),
        // Speech adapter: espeak-ng in process, and the speaker, WAV and text sinks.
        .target(name: "RunWalkSpeech", dependencies: ["RunWalkCore", "CEspeakNG", "CPulseSimple"]),
        .executableTarget(
            name: "RunWalkCLI",
            dependencies: [
                "RunWalkCore", "RunWalkIO", "RunWalkGPS", "RunWalkStore", "RunWalkSpeech", "RunWalkReport", "RunWalkTracks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "RunWalkBench",
            dependencies: ["RunWalkCore", "RunWalkIO", "RunWalkStore", "RunWalkSpeech", "RunWalkReport", "RunWalkTracks"]
        ),
        .testTarget(name: "RunWalkCoreTests", dependencies: ["RunWalkCore"]),
        .testTarget(name: "RunWalkRuntimeTests", dependencies: ["RunWalkRuntime", "RunWalkCore"]),
        .testTarget(name: "RunWalkIOTests", dependencies: ["RunWalkIO", "RunWalkCore"]),
        .testTarget(name: "RunWalkTracksTests", dependencies: ["RunWalkTracks", "RunWalkReport", "RunWalkIO", "RunWalkCore"]),
        .testTarget(name: "RunWalkReportTests", dependencies: ["RunWalkReport", "RunWalkIO", "RunWalkCore"]),
        .testTarget(name: "RunWalkCLITests", dependencies: ["RunWalkCore", "RunWalkIO", "RunWalkStore", "RunWalkTestSupport"]),
        .testTarget(name: "RunWalkGPSTests", dependencies: ["RunWalkGPS", "RunWalkCore", "RunWalkIO", "RunWalkTestSupport"]),
        .testTarget(
            name: "RunWalkStoreTests",
            dependencies: ["RunWalkStore", "RunWalkIO", "RunWalkCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "RunWalkSpeechTests", dependencies: ["RunWalkSpeech", "RunWalkCore"]),
    ]
)
