import Foundation
import Testing

/// Issue 18, "Errors, never crashes": a failed write to standard output or error is one
/// message and exit 1 (before: `try!`/FileHandle trap, SIGILL, exit 132).
@Suite("standard streams that fail (end to end)", .serialized)
struct StandardStreamTests {
    @Test("history > /dev/full: one message, exit 1")
    func fullDevice() throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        let result = try folder.shell("\"$RUNWALK\" history > /dev/full")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "runwalk: error: cannot write to standard output: no space left on device\n")
        #expect(!looksLikeCrash(result))
    }

    @Test("history >&- (standard output closed): one message, exit 1, the database untouched")
    func closedOutput() throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        let database = folder.location.databasePath
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let result = try folder.shell("\"$RUNWALK\" history >&-")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "runwalk: error: cannot write to standard output: bad file descriptor\n")
        // With descriptor 1 closed the database could have been opened as 1 and written into.
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    }

    @Test("a reader that went away, SIGPIPE ignored (a supervisor): one message, exit 1")
    func brokenPipeIgnored() throws {
        let folder = try TemporaryDataFolder()
        try folder.recordDemo()
        // The pipe's read end is closed before runwalk starts: the write must fail with EPIPE.
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try folder.shell("trap '' PIPE; exec \"$RUNWALK\" history", standardOutput: pipe.fileHandleForWriting.fileDescriptor)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "runwalk: error: cannot write to standard output: broken pipe\n")
    }

    @Test("fixes to a full device stops at the first failed write with exit 1")
    func fixesToFullDevice() throws {
        let folder = try TemporaryDataFolder()
        let result = try folder.shell("\"$RUNWALK\" fixes \(Sample.loop) > /dev/full")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "cannot write to standard output").count == 2, "\(result.stderr)")
        #expect(!looksLikeCrash(result))
    }

    @Test("a live run whose status output fails goes on to the end (summary printed), then exits 1")
    func liveRunWithFailingStatus() throws {
        let folder = try TemporaryDataFolder()
        let result = try folder.shell("\"$RUNWALK\" run '\(Sample.demoWorkout)' --gps file:\(Sample.demo) --speed 50 --json --voice text 2> /dev/full")
        #expect(result.status == 1)
        #expect(result.stdout.contains("\"state\" : \"completed\""), "\(result.stdout.prefix(300))")
        #expect(!looksLikeCrash(result))
    }

    @Test("standard error closed and full: exit 1, no crash")
    func errorStreamFails() throws {
        let folder = try TemporaryDataFolder()
        let closed = try folder.shell("\"$RUNWALK\" replay no-such.nmea --workout '1m run' 2>&-")
        #expect(closed.status == 2)
        let full = try folder.shell("\"$RUNWALK\" fixes \(Sample.demo) > /dev/null 2> /dev/full")
        #expect(full.status == 1)
    }
}
