import Foundation
import Testing

/// `runwalk fixes` output on real pipes and devices: a reader that goes away and a full disk
/// are one message and exit 1 (never a crash), and standard input reads like the file.
@Suite("runwalk fixes: output and input streams")
struct FixesOutputTests {
    static let track = "SampleTracks/trail-10hz.nmea" // 28 000 epochs: megabytes of output

    /// Runs a bash script in the repository root with `$RUNWALK` set to the binary.
    static func bash(_ script: String) throws -> RunWalkBinary.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = RunWalkBinary.repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.merging(["RUNWALK": RunWalkBinary.url.path]) { _, new in new }
        return try RunWalkBinary.collect(process)
    }

    @Test("a reader that closes the pipe early: one message naming the broken pipe, exit 1")
    func brokenPipe() throws {
        let result = try Self.bash("\"$RUNWALK\" fixes \(Self.track) | head -c 100 > /dev/null; echo \"status=${PIPESTATUS[0]}\"")
        #expect(result.stdout.contains("status=1"), "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.components(separatedBy: "cannot write to standard output").count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("Broken pipe"))
    }

    @Test("a full disk (/dev/full): one message, exit 1")
    func fullDisk() throws {
        let result = try Self.bash("\"$RUNWALK\" fixes \(Self.track) > /dev/full; echo \"status=$?\"")
        #expect(result.stdout.contains("status=1"), "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.components(separatedBy: "cannot write to standard output").count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"))
    }

    @Test("standard input ('-') through a pipe gives the same output as the file", arguments: ["jsonl", "csv"])
    func standardInput(format: String) throws {
        let direct = try RunWalkBinary.run(["fixes", Self.track, "--format", format])
        let piped = try Self.bash("cat \(Self.track) | \"$RUNWALK\" fixes - --format \(format)")
        #expect(direct.status == 0 && piped.status == 0)
        #expect(direct.stdout.count > 1_000_000)
        #expect(piped.stdout == direct.stdout)
    }
}
