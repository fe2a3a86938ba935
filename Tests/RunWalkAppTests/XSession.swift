import Foundation
import RunWalkTestSupport

/// A private X server (Xvfb) and a D-Bus session (with its accessibility bus) for one test,
/// started and stopped by PID, also when the test fails.
final class XSession {
    /// The programs the app tests run; a missing one skips the tests, except in CI.
    static let tools = ["/usr/bin/Xvfb", "/usr/bin/dbus-run-session", "/usr/bin/python3", "/usr/bin/xdotool", "/usr/bin/import"]

    /// Whether every tool is installed, and the Debian pyatspi module with them.
    static var toolsPresent: Bool {
        tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/pyatspi")
    }

    /// The tests run when the tools are here, and always in CI (where a missing tool must fail).
    static var shouldRun: Bool { toolsPresent || ProcessInfo.processInfo.environment["CI"] == "true" }

    private let server: ChildProcess
    /// ":N", chosen by Xvfb itself (-displayfd), so parallel runs never collide.
    let display: String

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(width: Int = 1280, height: Int = 800) throws {
        // ChildProcess: no signal blocked (the test pool's threads block signals Xvfb's scheduler
        // timer and the app's SIGTERM rely on), private folders, its own process group.
        server = try ChildProcess("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"])
        // Xvfb writes the display number once it accepts clients.
        _ = server.waitForStdout("\n", seconds: 10)
        guard let number = Int(server.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            server.stop(graceSeconds: 1)
            throw Failure(description: "Xvfb did not report its display (got \"\(server.stdout)\")")
        }
        display = ":\(number)"
    }

    /// The output of a program run inside a new D-Bus session on this display, in a process group
    /// of its own: the whole group (bus, app) is killed when it overruns `timeoutSeconds`, and
    /// whatever the session left behind (a bus daemon, an accessibility registry) when it ends.
    struct Run { var status: Int32?; var stdout: String; var stderr: String }

    /// Waited for on a thread of its own, not on one of the test pool's: a driven app takes minutes,
    /// and on a two-core machine two such waits would hold every pool thread and starve the other
    /// tests past their time limits.
    func run(_ arguments: [String], environment: [String: String], timeoutSeconds: Double) async throws -> Run {
        var variables = ["DISPLAY": display, "WAYLAND_DISPLAY": "", "GDK_BACKEND": "x11"]
        for (key, value) in environment { variables[key] = value }
        let frozen = variables
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Run, Error>) in
            let thread = Thread {
                do {
                    let result = try ChildProcess.run("/usr/bin/dbus-run-session", ["--"] + arguments, environment: frozen,
                                                      seconds: timeoutSeconds)
                    continuation.resume(returning: Run(status: result.status, stdout: result.stdout, stderr: result.stderr))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }

    deinit { server.stop(graceSeconds: 2) }
}
