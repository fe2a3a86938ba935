import Foundation
import RunWalkHost
import RunWalkIO
import RunWalkTestSupport
import Testing

/// Issue 30, item 5: a command whose output cannot be written (standard output closed, `>&-`)
/// says so once on standard error and exits 1, as `cat` does, whichever way it writes.
@Suite("commands with standard output closed (end to end)", .serialized)
struct ClosedOutputTests {
    static let commands = [
        "fixes SampleTracks/demo-short.nmea",
        "fixes SampleTracks/demo-short.nmea --format csv",
        "report last",
        "report last --format json",
        "report last -o -",
        "report last -o /dev/stdout",
        "export last --format gpx",
        "export last --format gpx -o -",
        "export last --format tcx -o /dev/stdout",
        "history",
        "history --records",
        "replay SampleTracks/demo-short.nmea --workout '1m run' --json --no-record --voice off",
        "import SampleTracks/demo-short.nmea -o -",
        "workouts list",
    ]

    @Test("each command: one message, exit 1", arguments: commands)
    func closedOutput(command: String) throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        let result = try folder.shell("\"$RUNWALK\" \(command) >&-")
        #expect(result.status == 1, "\(command): \(result.stderr)")
        let said = result.stderr.components(separatedBy: "cannot write to standard output: bad file descriptor").count - 1
        #expect(said == 1, "\(command): \(result.stderr)")
        #expect(!looksLikeCrash(result))
    }

    @Test("control status with standard output closed: one message, exit 1")
    func controlStatus() throws {
        let folder = "/tmp/rwclosed-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/control.sock"
        let run = try ChildProcess("/usr/bin/env", ["\(ControlSocketPath.overrideVariable)=\(socket)", RunWalkBinary.url.path, "run",
                                                    "2m run", "--gps", "file:SampleTracks/track-loop.nmea", "--speed", "4",
                                                    "--start", "now", "--voice", "off", "--json", "--no-record"],
                                   currentDirectory: RunWalkBinary.repositoryRoot)
        defer { run.stop() }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let script = "\(ControlSocketPath.overrideVariable)='\(socket)' \"$RUNWALK\" control status"
        let open = try TemporaryDataFolder().shell(script + " > /dev/null")
        #expect(open.status == 0, "the session answers: \(open.stderr)")
        let closed = try TemporaryDataFolder().shell(script + " >&-")
        #expect(closed.status == 1, "\(closed.stderr)")
        #expect(closed.stderr == "runwalk: error: cannot write to standard output: bad file descriptor\n")
    }

    @Test("standard input closed: reading '-' fails as an input error, not as an empty track")
    func closedInput() throws {
        let folder = try TemporaryDataFolder()
        let result = try folder.shell("\"$RUNWALK\" fixes - <&-")
        #expect(result.status != 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!looksLikeCrash(result))
    }
}
