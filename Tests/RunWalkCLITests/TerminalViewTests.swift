import Foundation
import Testing
import RunWalkTestSupport

/// `runwalk run` in a real terminal (tmux, a private server per test): the full-screen view,
/// its keys, and the terminal given back at the end.
@Suite("runwalk run in a terminal (tmux)", .serialized)
struct TerminalViewTests {
    /// One tmux server of the test's own (its own socket), killed at the end.
    final class Tmux {
        let socket: String
        let session = "rw"
        let folder: URL
        init(columns: Int, rows: Int, command: String) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-tmux-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            socket = folder.appendingPathComponent("tmux.sock").path
            status = try run(["new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)", command])
        }

        /// What new-session said (nothing when it worked).
        var status = ""

        @discardableResult
        func run(_ arguments: [String]) throws -> String {
            // posix_spawn and waitpid by hand: Foundation's Process waits for the tmux client
            // (whose server forks off) in a way that never returns here.
            let outPath = folder.appendingPathComponent("out-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: outPath) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // Default signal handling and an empty mask for tmux (the test process ignores and blocks some).
            var all = sigset_t()
            sigfillset(&all)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            let argv = ["tmux", "-S", socket] + arguments
            var cArgs = argv.map { strdup($0) } + [nil]
            defer { cArgs.forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, &cArgs, environ)
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        }

        func screen() -> String { (try? run(["capture-pane", "-p", "-t", session])) ?? "" }
        func keys(_ keys: String...) { _ = try? run(["send-keys", "-t", session] + keys) }

        /// Waits for the screen to show what `condition` wants (polling, 30 s at most).
        func waitFor(_ what: String, _ condition: (String) -> Bool) -> String {
            let deadline = Date().addingTimeInterval(30)
            var text = screen()
            while !condition(text) && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1)
                text = screen()
            }
            return text
        }

        deinit {
            _ = try? run(["kill-server"])
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The big-digit rows of the view (what shows the time left).
    static func digits(_ screen: String) -> [Substring] {
        screen.split(separator: "\n").filter { $0.contains("███") }
    }

    @Test("40×20 and 80×24: the phase and time left show; space pauses (PAUSED, the time stops); n skips; q q stops with the summary and the terminal back",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is installed by scripts/test"),
          arguments: [(40, 20), (80, 24)])
    func keysAndScreen(columns: Int, rows: Int) throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-tmux-data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let command = "cd '\(RunWalkBinary.repositoryRoot.path)' && RUNWALK_DATA_DIR='\(data.path)' XDG_RUNTIME_DIR='\(data.path)' "
            + "'\(RunWalkBinary.url.path)' run '2m warmup, 2x(30s run, 30s walk)' --gps file:SampleTracks/track-loop.nmea "
            + "--speed 2 --voice off --start now; echo EXIT=$?; sleep 60"
        let tmux = try Tmux(columns: columns, rows: rows, command: command)
        try #require(tmux.status.isEmpty, "tmux new-session: \(tmux.status)")
        var screen = tmux.waitFor("the warm-up") { $0.contains("WARM-UP 1/5") }
        #expect(screen.contains("WARM-UP 1/5"), "\(screen)")
        #expect(screen.contains("left in warm-up"), "\(screen)")
        #expect(!Self.digits(screen).isEmpty, "big digits for the time left")
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= columns })

        tmux.keys("Space")
        screen = tmux.waitFor("PAUSED") { $0.contains("PAUSED") }
        #expect(screen.contains("PAUSED"), "\(screen)")
        let frozen = Self.digits(screen)
        Thread.sleep(forTimeInterval: 1.5)  // two session seconds at --speed 2: the time left must not move
        #expect(Self.digits(tmux.screen()) == frozen, "the time left stands still while paused")

        tmux.keys("n")
        screen = tmux.waitFor("the run") { $0.contains("RUN 2/5") }
        #expect(screen.contains("RUN 2/5"), "\(screen)")
        #expect(!screen.contains("PAUSED"))

        tmux.keys("q")
        screen = tmux.waitFor("the question") { $0.contains("q again") }
        #expect(screen.contains("q again"), "\(screen)")
        tmux.keys("q")
        screen = tmux.waitFor("the summary") { $0.contains("EXIT=") }
        #expect(screen.contains("EXIT=0"), "\(screen)")
        #expect(screen.contains("Result    stopped"), "the summary is printed on the restored terminal: \(screen)")
        #expect(Self.digits(screen).isEmpty, "the view is gone: the main screen is back")
    }

    @Test("Ctrl-Z gives the shell its prompt back with the workout paused; fg redraws the view and resumes",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is installed by scripts/test"))
    func suspendAndForeground() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-tmux-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: data) }
        let socket = data.appendingPathComponent("control.sock").path
        // An interactive shell, for job control (Ctrl-Z, fg); the prompt is one the test can find.
        let tmux = try Tmux(columns: 80, rows: 24, command: "env -i PATH=/usr/bin:/bin HOME='\(data.path)' TERM=xterm PS1='SHELL-PROMPT$ ' bash --norc --noprofile -i")
        try #require(tmux.status.isEmpty, "tmux new-session: \(tmux.status)")
        _ = tmux.waitFor("the prompt") { $0.contains("SHELL-PROMPT$") }
        tmux.keys("cd '\(RunWalkBinary.repositoryRoot.path)' && RUNWALK_DATA_DIR='\(data.path)' RUNWALK_CONTROL_SOCKET='\(socket)' "
                  + "'\(RunWalkBinary.url.path)' run '2m warmup, 2x(30s run, 30s walk)' --gps file:SampleTracks/track-loop.nmea "
                  + "--speed 2 --voice off --start now", "Enter")
        var screen = tmux.waitFor("the warm-up") { $0.contains("WARM-UP 1/5") }
        #expect(screen.contains("WARM-UP 1/5"), "\(screen)")

        tmux.keys("C-z")
        screen = tmux.waitFor("the shell") { $0.contains("Stopped") && $0.hasSuffix("SHELL-PROMPT$") || $0.contains("Stopped") }
        #expect(screen.contains("Stopped"), "the shell reports the job stopped: \(screen)")
        #expect(screen.contains("SHELL-PROMPT$"), "the prompt is usable: \(screen)")
        #expect(Self.digits(screen).isEmpty, "the view is gone while stopped: \(screen)")

        tmux.keys("fg", "Enter")
        screen = tmux.waitFor("the view again") { $0.contains("WARM-UP 1/5") && !Self.digits($0).isEmpty }
        #expect(screen.contains("WARM-UP 1/5"), "the view is redrawn after fg: \(screen)")
        let environment = ["RUNWALK_CONTROL_SOCKET": socket]
        var status = try RunWalkBinary.run(["control", "status", "--json"], environment: environment)
        let deadline = Date().addingTimeInterval(10)
        while status.stdout.contains("\"paused\":true") && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            status = try RunWalkBinary.run(["control", "status", "--json"], environment: environment)
        }
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"paused\":false"), "resumed after fg: \(status.stdout)")

        tmux.keys("q")
        _ = tmux.waitFor("the question") { $0.contains("q again") }
        tmux.keys("q")
        // bash drops the rest of a command list whose job was stopped: fg's status is the run's.
        screen = tmux.waitFor("the summary") { $0.contains("Result    stopped") }
        tmux.keys("echo EXIT=$?", "Enter")
        // The typed line says `EXIT=$?`; its output is a line of its own.
        screen = tmux.waitFor("the status") { $0.split(separator: "\n").contains { $0.hasPrefix("EXIT=") } }
        #expect(screen.contains("EXIT=0"), "\(screen)")
        #expect(screen.contains("Result    stopped"), "the summary is printed on the restored terminal: \(screen)")
    }
}
