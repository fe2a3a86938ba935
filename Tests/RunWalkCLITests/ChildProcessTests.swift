import Foundation
import Testing
import RunWalkTestSupport

/// The harness every process-starting test goes through (issue 28): private folders, the whole
/// output, and nothing left running.
@Suite("ChildProcess (the test harness)")
struct ChildProcessTests {
    /// The user's own RunWalk folders, as runwalk would choose them from the test's environment.
    static var userFolders: [String] {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"] ?? NSHomeDirectory()
        return [(environment["XDG_DATA_HOME"] ?? home + "/.local/share") + "/runwalk",
                (environment["XDG_CONFIG_HOME"] ?? home + "/.config") + "/runwalk",
                (environment["XDG_STATE_HOME"] ?? home + "/.local/state") + "/runwalk"]
    }

    /// What a folder looks like from outside: whether it exists, and when it last changed.
    static func snapshot(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "absent" }
        return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    @Test("a child gets private data, config, state, cache and runtime folders (0700), removed when it is stopped")
    func privateFolders() throws {
        let child = try ChildProcess("/usr/bin/env", [])
        let root = child.folders.root.path
        #expect(child.wait(seconds: 30) == 0, "\(child.stderr)")
        var variables: [String: String] = [:]
        for line in child.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { variables[parts[0]] = parts[1] }
        }
        for name in ["RUNWALK_DATA_DIR", "RUNWALK_CONFIG_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME",
                     "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"] {
            #expect(variables[name]?.hasPrefix(root + "/") == true, "\(name)=\(variables[name] ?? "unset")")
        }
        var info = stat()
        #expect(stat(child.folders.runtimeFolder.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        child.stop()
        #expect(!FileManager.default.fileExists(atPath: root))
    }

    @Test("a recorded replay started by a test records into its private data folder, not the user's")
    func recordsPrivately() throws {
        let before = Self.userFolders.map(Self.snapshot)
        let folders = try PrivateEnvironment()
        defer { folders.remove() }
        // No RUNWALK_DATA_DIR of the test's own: the harness's default is what is checked.
        let result = try ChildProcess.run(RunWalkBinary.url.path, ["replay", Sample.demo, "--workout", Sample.demoWorkout],
                                          currentDirectory: RunWalkBinary.repositoryRoot, folders: folders, seconds: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folders.dataFolder.appendingPathComponent("runwalk/runwalk.sqlite").path))
        #expect(Self.userFolders.map(Self.snapshot) == before, "the user's folders changed: \(Self.userFolders)")
    }

    @Test("wait() returns all the output, also what a process it started writes after it exited")
    func readsToTheEnd() throws {
        // The shell exits at once; its background child writes 0.5 s later into the same pipe. The
        // old harness waited a fixed 0.1 s after the exit and lost that line (as a 60 kB JSON
        // summary came in cut short on a loaded machine).
        let child = try ChildProcess("/bin/sh", ["-c", "(sleep 0.5; echo late; head -c 200000 /dev/zero | tr '\\0' x) & echo early"])
        defer { child.stop() }
        #expect(child.wait(seconds: 30) == 0)
        #expect(child.stdout.hasPrefix("early\nlate\n"), "\(child.stdout.prefix(40))")
        #expect(child.stdout.count == "early\nlate\n".count + 200_000)
    }

    @Test("stop() ends the process and everything it started (its process group)")
    func stopsTheGroup() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "sleep 300 & echo $!; wait"])
        #expect(child.waitForStdout("\n", seconds: 30))
        let grandchild = try #require(pid_t(child.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(GPSFake.isAlive(grandchild))
        child.stop(graceSeconds: 2)
        #expect(!child.isRunning)
        #expect(Self.gone(grandchild), "the background sleep outlived stop()")
    }

    @Test("a test that fails before stop() still leaves nothing running (deinit stops the group)")
    func failingTestLeavesNothing() throws {
        struct Failed: Error {}
        var grandchild: pid_t?
        do {
            let child = try ChildProcess("/bin/sh", ["-c", "sleep 300 & echo $!; wait"])
            _ = child.waitForStdout("\n", seconds: 30)
            grandchild = pid_t(child.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            throw Failed()  // as a failed `try #require` leaves the test, without a stop()
        } catch is Failed {}
        let pid = try #require(grandchild)
        #expect(Self.gone(pid), "the background sleep outlived its ChildProcess")
    }

    @Test("many processes started and read at once from several threads: every output whole")
    func manyAtOnce() async throws {
        // The pattern that crashed libdispatch's event loop (pipes' read sources set up and torn
        // down from many threads at once); now plain reads on threads of their own.
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<48 {
                group.addTask {
                    let result = try ChildProcess.run("/bin/sh", ["-c", "echo out\(index); echo err\(index) >&2"], seconds: 60)
                    return result.status == 0 && result.stdout == "out\(index)\n" && result.stderr == "err\(index)\n"
                }
            }
            for try await whole in group { #expect(whole) }
        }
    }

    /// Whether `pid` is gone (or a zombie), waiting up to 5 s for the kernel to finish it.
    static func gone(_ pid: pid_t) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while GPSFake.isAlive(pid) && Date() < deadline { usleep(10_000) }
        return !GPSFake.isAlive(pid)
    }
}
