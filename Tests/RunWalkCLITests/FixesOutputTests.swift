import Foundation
import Testing

/// `runwalk fixes` output on real pipes and devices: a reader that goes away and a full disk
/// are one message and exit 1 (never a crash), and standard input reads like the file.
@Suite("runwalk fixes: output and input streams")
struct FixesOutputTests {
    static let track = "SampleTracks/trail-10hz.nmea" // 28 000 epochs: megabytes of output

    /// Runs a bash script in the repository root with `$RUNWALK` set to the binary.
    static func bash(_ script: String) throws -> RunWalkBinary.Output {
        try RunWalkBinary.collect(Launch(["-c", script], executable: "/bin/bash", environment: ["RUNWALK": RunWalkBinary.url.path]))
    }

    @Test("a reader that closes the pipe early: one message naming the broken pipe, exit 1")
    func brokenPipe() throws {
        let result = try Self.bash("\"$RUNWALK\" fixes \(Self.track) | head -c 100 > /dev/null; echo \"status=${PIPESTATUS[0]}\"")
        #expect(result.stdout.contains("status=1"), "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.components(separatedBy: "cannot write to standard output").count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("broken pipe"))
    }

    @Test("a full disk (/dev/full): one message, exit 1")
    func fullDisk() throws {
        let result = try Self.bash("\"$RUNWALK\" fixes \(Self.track) > /dev/full; echo \"status=$?\"")
        #expect(result.stdout.contains("status=1"), "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.components(separatedBy: "cannot write to standard output").count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("no space left on device"))
    }

    @Test("standard input ('-') through a pipe gives the same output as the file", arguments: ["jsonl", "csv"])
    func standardInput(format: String) throws {
        let direct = try RunWalkBinary.run(["fixes", Self.track, "--format", format])
        let piped = try Self.bash("cat \(Self.track) | \"$RUNWALK\" fixes - --format \(format)")
        #expect(direct.status == 0 && piped.status == 0)
        #expect(direct.stdout.count > 1_000_000)
        #expect(piped.stdout == direct.stdout)
    }

    @Test("binary bytes around sentences and invalid epochs are counted on standard error")
    func countsOnStandardError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rw-mixed-\(UUID().uuidString).nmea").path
        func sentence(_ body: String) -> [UInt8] {
            var sum: UInt8 = 0
            for byte in body.utf8 { sum ^= byte }
            let hex = String(sum, radix: 16, uppercase: true)
            return Array("$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n".utf8)
        }
        // UBX-like binary (sync bytes, a line feed inside) before each sentence.
        let binary: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x04, 0x00, 0x0A, 0xFF, 0x24, 0x00, 0x10, 0x33]
        var bytes: [UInt8] = []
        bytes += binary + sentence("GPRMC,120000,A,5130.0000,N,00007.5000,W,1.0,90.0,251126,,,A")
        bytes += binary + sentence("GPGGA,120000,5130.0000,N,00007.5000,W,1,08,1.0,20.0,M,47.0,M,,")
        bytes += binary + sentence("GPRMC,120001,V,5130.0000,N,00007.5000,W,1.0,90.0,251126,,,N")
        bytes += binary + sentence("GPGGA,120001,5130.0000,N,00007.5000,W,0,08,1.0,20.0,M,47.0,M,,")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try RunWalkBinary.run(["fixes", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last?.contains("\"lat\"") == false, "the invalid epoch has no position: \(lines)")
        #expect(lines.last?.contains("\"mode\":1") == true)
        #expect(result.stderr.contains("2 epochs from 4 sentences"), "\(result.stderr)")
        #expect(result.stderr.contains("1 epochs without a valid fix"))
        #expect(result.stderr.contains("junk bytes"))
    }
}
