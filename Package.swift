// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RunWalk",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "runwalk", targets: ["RunWalkCLI"]),
        .executable(name: "runwalk-bench", targets: ["RunWalkBench"]),
        .library(name: "RunWalkCore", targets: ["RunWalkCore"]),
        .executable(name: "runwalk-app", targets: ["RunWalkApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        // Pure logic: no I/O, no wall clock, no globals.
        .target(name: "RunWalkCore"),
        // The one session loop: a location source, a clock and commands in; status and events out.
        .target(name: "RunWalkRuntime", dependencies: ["RunWalkCore"]),
        // The full-screen terminal front end: a pure renderer and key handler, and the tty adapter.
        .target(name: "RunWalkTerminal", dependencies: ["RunWalkCore", "RunWalkRuntime"]),
        // signalfd(2), which Swift's Glibc lacks, for Ctrl-Z; imported only by RunWalkHost's StopSignalPause.
        .target(name: "CJobControl"),
        // Files, standard streams and the replay pipeline around the core.
        .target(name: "RunWalkIO", dependencies: ["RunWalkCore", "RunWalkRuntime"]),
        // libgps (gpsd's client library); imported only by RunWalkGPS.
        .systemLibrary(name: "CLibGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        // zlib, for gzip-compressed track files; imported only by RunWalkTracks.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Track files of every kind (NMEA, GPX, TCX, FIT, gzip-compressed) read into fixes.
        .target(name: "RunWalkTracks", dependencies: ["RunWalkCore", "RunWalkIO", "CZlib"]),
        // Location sources (gpsd, track file, serial device) behind the runtime's LocationSource.
        .target(name: "RunWalkGPS", dependencies: ["RunWalkCore", "RunWalkRuntime", "RunWalkIO", "RunWalkTracks", "CLibGPS"]),
        // Pure renderers: reports (HTML) and exports (GPX, TCX, FIT), GPX import; no I/O.
        .target(name: "RunWalkReport", dependencies: ["RunWalkCore"]),
        // Real gpsd daemons, pseudo-terminals and free ports for the integration tests.
        .target(name: "RunWalkTestSupport", path: "Tests/Support/RunWalkTestSupport"),
        // SQLite's C API (libsqlite3-dev); only RunWalkStore imports it.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The session store: SQLite (WAL) through its own small layer, the recorder, recovery and
        // history. FoundationEssentials only (no libFoundation, no ICU in `runwalk`), which the
        // upcoming feature makes the compiler check: members of modules it does not import stay hidden.
        .target(
            name: "RunWalkStore",
            dependencies: ["RunWalkCore", "RunWalkIO", "CSQLite"],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // Opens a shared library on first use for the forwarding modules below (issue 18: RSS).
        .target(name: "CLazyLibrary"),
        // espeak-ng's C API (headers from libespeak-ng-dev); only RunWalkSpeech imports it. Not linked:
        // libespeak-ng.so.1 is opened when speech is first synthesised.
        .target(name: "CEspeakNG", dependencies: ["CLazyLibrary"]),
        // PulseAudio's asynchronous API for the speaker and music ducking (headers from libpulse-dev); only
        // RunWalkSpeech imports it. Not linked: libpulse.so.0 is opened when the speaker is first used.
        .target(name: "CPulse", dependencies: ["CLazyLibrary"]),
        // Speech adapter: espeak-ng in process, and the speaker, WAV and text sinks.
        .target(name: "RunWalkSpeech", dependencies: ["RunWalkCore", "RunWalkRuntime", "RunWalkIO", "CEspeakNG", "CPulse"]),
        // GLib's GIO (GDBus) for MPRIS, notifications and logind; imported only by RunWalkDesktop.
        .systemLibrary(name: "CGio", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // feedbackd's client library (haptics); imported only by RunWalkDesktop.
        .systemLibrary(name: "CFeedback", pkgConfig: "libfeedback-0.0", providers: [.apt(["libfeedback-dev"])]),
        // Hands-free: MPRIS player and music client, haptics, notifications, the logind inhibitor.
        .target(name: "RunWalkDesktop", dependencies: ["RunWalkCore", "RunWalkRuntime", "CGio", "CFeedback"]),
        // The one session service under every front end (issue 29): a request in; options from settings
        // and plan, the voice, the recorder, the control socket, signals, hands-free and finishing.
        .target(name: "RunWalkHost", dependencies: ["RunWalkCore", "RunWalkRuntime", "RunWalkIO", "RunWalkStore", "RunWalkSpeech",
                                                    "RunWalkGPS", "RunWalkDesktop", "CJobControl"]),
        .executableTarget(
            name: "RunWalkCLI",
            dependencies: [
                "RunWalkCore", "RunWalkRuntime", "RunWalkIO", "RunWalkGPS", "RunWalkStore", "RunWalkSpeech", "RunWalkReport",
                "RunWalkTerminal", "RunWalkTracks", "RunWalkHost", "RunWalkDesktop",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Linked by lld with packed relative relocations (DT_RELR: glibc 2.36, Debian 12) and no
            // exported symbols (the static Swift runtime's link arguments export every public one):
            // a megabyte of relocations and half a megabyte of symbol tables that every run mapped
            // and read at start-up, and dead code the exports kept alive (issue 18, RSS).
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                           "-Xlinker", "--no-export-dynamic"])]
        ),
        .executableTarget(
            name: "RunWalkBench",
            dependencies: ["RunWalkCore", "RunWalkRuntime", "RunWalkIO", "RunWalkGPS", "RunWalkStore", "RunWalkSpeech", "RunWalkReport", "RunWalkTracks"]
        ),
        .testTarget(name: "RunWalkCoreTests", dependencies: ["RunWalkCore"]),
        .testTarget(name: "RunWalkRuntimeTests", dependencies: ["RunWalkRuntime", "RunWalkCore", "RunWalkGPS"]),
        .testTarget(name: "RunWalkTerminalTests", dependencies: ["RunWalkTerminal", "RunWalkRuntime", "RunWalkCore"]),
        .testTarget(name: "RunWalkIOTests", dependencies: ["RunWalkIO", "RunWalkRuntime", "RunWalkCore"]),
        .testTarget(name: "RunWalkTracksTests", dependencies: ["RunWalkTracks", "RunWalkReport", "RunWalkIO", "RunWalkCore", "RunWalkRuntime", "RunWalkGPS",
                                                        "RunWalkTestSupport"]),
        .testTarget(name: "RunWalkReportTests", dependencies: ["RunWalkReport", "RunWalkIO", "RunWalkCore", "RunWalkRuntime", "RunWalkGPS",
                                                        "RunWalkTestSupport"]),
        .testTarget(name: "RunWalkCLITests", dependencies: ["RunWalkCore", "RunWalkRuntime", "RunWalkIO", "RunWalkHost", "RunWalkStore", "RunWalkTestSupport"]),
        .testTarget(name: "RunWalkGPSTests", dependencies: ["RunWalkGPS", "RunWalkRuntime", "RunWalkCore", "RunWalkIO", "RunWalkTestSupport"]),
        .testTarget(
            name: "RunWalkStoreTests",
            dependencies: ["RunWalkStore", "RunWalkIO", "RunWalkCore", "RunWalkRuntime", "RunWalkGPS"]
        ),
        .testTarget(name: "RunWalkSpeechTests", dependencies: ["RunWalkSpeech", "RunWalkCore", "RunWalkTestSupport"]),
        .testTarget(name: "RunWalkHostTests", dependencies: ["RunWalkHost", "RunWalkStore", "RunWalkIO", "RunWalkRuntime", "RunWalkCore"]),
        .testTarget(name: "RunWalkDesktopTests", dependencies: ["RunWalkDesktop", "RunWalkRuntime", "RunWalkCore", "RunWalkTestSupport"],
                    exclude: ["bluez_standin.py"]),

        // The GTK app (issue 15). GTK 4 + libadwaita; only RunWalkApp imports CAdwaita.
        .systemLibrary(name: "CAdwaita", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev"])]),
        // The app's view models and formatting, fed by SessionStatus and summaries; no GTK.
        .target(name: "RunWalkAppModel", dependencies: ["RunWalkCore", "RunWalkRuntime", "RunWalkIO"]),
        .executableTarget(
            name: "RunWalkApp",
            dependencies: ["CAdwaita", "RunWalkAppModel", "RunWalkCore", "RunWalkRuntime", "RunWalkIO", "RunWalkGPS",
                           "RunWalkStore", "RunWalkHost", "RunWalkReport", "RunWalkDesktop"]
        ),
        .testTarget(name: "RunWalkAppModelTests", dependencies: ["RunWalkAppModel", "RunWalkCore", "RunWalkRuntime"]),
        .testTarget(name: "RunWalkAppTests", dependencies: ["RunWalkTestSupport"],
                    exclude: ["live_page.py", "app_session.py", "plans", "settings_page.py", "history_page.py", "atspi_app.py"]),
    ]
)
