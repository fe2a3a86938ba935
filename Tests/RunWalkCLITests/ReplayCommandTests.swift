import Foundation
import Testing

/// Runs the built `runwalk` binary as a user would.
enum RunWalkBinary {
    static var url: URL {
        // The test bundle sits beside the executables in the build folder.
        var dir = Bundle.main.bundleURL
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("runwalk").path) {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("runwalk")
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    struct Output { var status: Int32; var stdout: String; var stderr: String }

    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

@Suite("runwalk replay (end to end)")
struct ReplayCommandTests {
    @Test("a bad workout spec exits 2 naming the column and cause")
    func badSpec() throws {
        let result = try RunWalkBinary.run(["replay", "x.nmea", "--workout", "8x(90s run"])
        #expect(result.status == 2)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == "runwalk: error: workout spec: missing \")\" to close the \"(\" at column 3, at column 11")
        #expect(result.stdout.isEmpty)
    }

    @Test("a missing track exits 2 naming the path")
    func missingTrack() throws {
        let result = try RunWalkBinary.run(["replay", "no-such-track.nmea", "--workout", "5m run"])
        #expect(result.status == 2)
        #expect(result.stderr == "runwalk: error: no-such-track.nmea: no such file\n")
    }
}
