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
    ],
    targets: [
        // Pure logic: no I/O, no wall clock, no globals.
        .target(name: "RunWalkCore"),
        // Files, standard streams and the replay pipeline around the core.
        .target(name: "RunWalkIO", dependencies: ["RunWalkCore"]),
        // libgps (gpsd's client library); imported only by RunWalkGPS.
        .systemLibrary(name: "CLibGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        // Live location sources (gpsd, NMEA file, serial device) and the live run loop.
        .target(name: "RunWalkGPS", dependencies: ["RunWalkCore", "RunWalkIO", "CLibGPS"]),
        // Real gpsd daemons, pseudo-terminals and free ports for the integration tests.
        .target(name: "RunWalkTestSupport", path: "Tests/Support/RunWalkTestSupport"),
        .executableTarget(
            name: "RunWalkCLI",
            dependencies: [
                "RunWalkCore", "RunWalkIO", "RunWalkGPS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "RunWalkBench",
            dependencies: ["RunWalkCore", "RunWalkIO"]
        ),
        .testTarget(name: "RunWalkCoreTests", dependencies: ["RunWalkCore"]),
        .testTarget(name: "RunWalkIOTests", dependencies: ["RunWalkIO", "RunWalkCore"]),
        .testTarget(name: "RunWalkCLITests", dependencies: ["RunWalkCore", "RunWalkIO", "RunWalkTestSupport"]),
        .testTarget(name: "RunWalkGPSTests", dependencies: ["RunWalkGPS", "RunWalkCore", "RunWalkIO", "RunWalkTestSupport"]),
    ]
)
