import Foundation
import RunWalkCore
import RunWalkHost
import RunWalkIO
import RunWalkRuntime
import RunWalkTestSupport
import Testing

/// Ctrl-Z / fg (SIGTSTP, SIGCONT) and Ctrl-\ (SIGQUIT) on a real `runwalk run` in line mode.
@Suite("runwalk run: job control and SIGQUIT (end to end)", .serialized)
struct JobSignalTests {
    /// A live run of `track-loop` at four times real time, controlled through its own socket.
    final class LiveRun {
        let folder: String
        let socket: String
        let process: ChildProcess

        init(voice: String = "text") throws {
            folder = "/tmp/rwjob-\(getpid())-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
            socket = folder + "/control.sock"
            process = try ChildProcess("/usr/bin/env", ["\(ControlSocketPath.overrideVariable)=\(socket)", RunWalkBinary.url.path, "run",
                                                        "2m warmup, 2x(1m run, 1m walk)", "--gps", "file:SampleTracks/track-loop.nmea",
                                                        "--speed", "4", "--start", "now", "--voice", voice, "--json", "--no-record"],
                                       currentDirectory: RunWalkBinary.repositoryRoot)
        }

        deinit {
            process.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }

        func status() throws -> SessionStatus? {
            let answer = try RunWalkBinary.run(["control", "status", "--json"], environment: [ControlSocketPath.overrideVariable: socket])
            guard answer.status == 0 else { return nil }
            return try JSONDecoder().decode(SessionStatus.self, from: Data(answer.stdout.utf8))
        }

        func waitForStatus(_ condition: (SessionStatus) -> Bool) throws -> SessionStatus? {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let current = try status(), condition(current) { return current }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return nil
        }

        /// The process's scheduler state letter from /proc (`T` when stopped).
        var state: Character? {
            guard let stat = try? String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            return stat[stat.index(after: close)...].first { $0 != " " }
        }

        func waitForState(_ letter: Character) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if state == letter { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }
    }

    @Test("Ctrl-Z (SIGTSTP) pauses the workout before the process stops; SIGCONT resumes it, the stopped time counted as paused")
    func stopAndContinue() throws {
        let run = try LiveRun()
        let running = try #require(try run.waitForStatus { $0.stage == .running && !$0.paused })
        run.process.send(SIGTSTP)
        #expect(run.waitForState("T"), "the process stops itself after SIGTSTP")
        #expect(run.process.stderr.contains("Paused."), "the pause is said before the stop: \(run.process.stderr)")
        // Stopped for 1.5 s of wall time: 6 s of workout time at --speed 4 if the clock ran on.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(run.state == "T", "still stopped")
        run.process.send(SIGCONT)
        let resumed = try #require(try run.waitForStatus { !$0.paused && $0.stage == .running })
        // The workout clock moved only while the process ran (the queries take well under 1 s).
        let moved = resumed.workoutElapsedSeconds - running.workoutElapsedSeconds
        #expect(moved < 4, "the workout clock ran on while stopped: \(moved) s")
        #expect(run.process.stderr.contains("Resumed."), "\(run.process.stderr)")

        let stopped = try RunWalkBinary.run(["control", "stop"], environment: [ControlSocketPath.overrideVariable: run.socket])
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(run.process.wait(seconds: 30) == 0, "\(run.process.stderr)")
        let summary = try SummaryJSON.decode(run.process.stdout)
        let kinds = (summary.events ?? []).map(\.kind)
        #expect(kinds.contains(.pause) && kinds.contains(.resume), "\(kinds)")
        #expect(summary.pausedSeconds >= 5, "the stopped time is paused time: \(summary.pausedSeconds)")
    }

    @Test("a workout paused before Ctrl-Z stays paused after fg")
    func pausedStaysPaused() throws {
        let run = try LiveRun(voice: "off")
        _ = try #require(try run.waitForStatus { $0.stage == .running })
        let paused = try RunWalkBinary.run(["control", "pause"], environment: [ControlSocketPath.overrideVariable: run.socket])
        #expect(paused.status == 0, "\(paused.stderr)")
        run.process.send(SIGTSTP)
        #expect(run.waitForState("T"))
        run.process.send(SIGCONT)
        #expect(run.waitForState("S") || run.state == "R")
        let after = try #require(try run.status())
        #expect(after.paused, "fg does not resume what the runner paused")
    }

    @Test("Ctrl-Z and fg in quick succession, 30 times: the run is never left stopped")
    func stopThenContinueAtOnce() throws {
        let run = try LiveRun()
        for attempt in 1...30 {
            // Running and not paused before each Ctrl-Z: a process left stopped by the one before
            // never answers (waitForStatus gives up after 30 s), one left paused never shows this.
            try #require(try run.waitForStatus { !$0.paused && $0.stage == .running } != nil,
                         "attempt \(attempt): left stopped or paused (state \(run.state.map(String.init) ?? "?"))")
            // A SIGCONT that comes while the SIGTSTP is still pending discards it (the kernel's rule);
            // one that comes while the pause is being made cancels the stop.
            run.process.send(SIGTSTP)
            run.process.send(SIGCONT)
        }
        try #require(try run.waitForStatus { !$0.paused && $0.stage == .running } != nil,
                     "after the last attempt: left stopped or paused (state \(run.state.map(String.init) ?? "?"))")
        #expect(run.state != "T")
        let stopped = try RunWalkBinary.run(["control", "stop"], environment: [ControlSocketPath.overrideVariable: run.socket])
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(run.process.wait(seconds: 30) == 0, "\(run.process.stderr)")
    }

    @Test("Ctrl-Z a moment after fg still stops the run: no window in which a Ctrl-Z is ignored or a fg lost")
    func stopRightAfterContinue() throws {
        let run = try LiveRun(voice: "off")
        for attempt in 1...5 {
            try #require(try run.waitForStatus { !$0.paused && $0.stage == .running } != nil, "attempt \(attempt)")
            // `fg` (SIGCONT to a running process) and, 20 ms later, Ctrl-Z: the stop is meant and
            // must happen, the workout paused first; the next SIGCONT resumes it.
            run.process.send(SIGCONT)
            Thread.sleep(forTimeInterval: 0.02)
            run.process.send(SIGTSTP)
            #expect(run.waitForState("T"), "attempt \(attempt): Ctrl-Z 20 ms after fg was ignored (state \(run.state.map(String.init) ?? "?"))")
            run.process.send(SIGCONT)
        }
        try #require(try run.waitForStatus { !$0.paused && $0.stage == .running } != nil)
        let stopped = try RunWalkBinary.run(["control", "stop"], environment: [ControlSocketPath.overrideVariable: run.socket])
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(run.process.wait(seconds: 30) == 0, "\(run.process.stderr)")
        let summary = try SummaryJSON.decode(run.process.stdout)
        #expect((summary.events ?? []).filter { $0.kind == .pause }.count == 5, "each Ctrl-Z paused the workout once")
    }

    @Test("SIGQUIT (Ctrl-\\) finalises a live run like SIGTERM: no crash report, the summary printed, exit 0")
    func quitFinalises() throws {
        let run = try LiveRun(voice: "off")
        _ = try #require(try run.waitForStatus { $0.stage == .running })
        run.process.send(SIGQUIT)
        #expect(run.process.wait(seconds: 30) == 0, "\(run.process.stderr)")
        #expect(run.process.stderr.contains("runwalk: quit; stopping the workout"), "\(run.process.stderr)")
        #expect(!run.process.stderr.contains("crashed"), "\(run.process.stderr)")
        let summary = try SummaryJSON.decode(run.process.stdout)
        #expect(summary.state == .stopped)
    }

    @Test("SIGQUIT to a command outside a session quits it by the signal, without a \"Program crashed\" backtrace")
    func quitElsewhere() throws {
        // `fixes -` blocks reading its standard input, a pipe the test holds open. posix_spawn with
        // an empty signal mask: a child started from a pool thread would inherit its blocked signals.
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let errorPath = NSTemporaryDirectory() + "rwquit-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addclose(&actions, ends[1])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments: [String] = [RunWalkBinary.url.path, "fixes", "-"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, RunWalkBinary.url.path, &actions, &attributes, argv, environ) == 0)
        close(ends[0])
        // Wait until it blocks in its read (state S), so main() has run and put SIGQUIT's default back.
        let deadline = Date().addingTimeInterval(10)
        var sleeping = false
        while !sleeping && Date() < deadline {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            sleeping = stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("S") == true
            if !sleeping { Thread.sleep(forTimeInterval: 0.02) }
        }
        Thread.sleep(forTimeInterval: 0.2)
        kill(pid, SIGQUIT)
        var status: Int32 = 0
        var waited: pid_t = -1
        let limit = Date().addingTimeInterval(10)
        while Date() < limit {
            waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        if waited != pid { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        let text = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        #expect(waited == pid, "runwalk fixes did not end on SIGQUIT")
        // Killed by the signal itself (status & 0x7f is the signal number; a core dump sets 0x80).
        #expect(status & 0x7f == SIGQUIT, "wait status \(status)")
        #expect(!text.contains("crashed") && !text.contains("Backtrac"), "\(text)")
    }
}
