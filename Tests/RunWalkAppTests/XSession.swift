import Foundation

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

    private let server = Process()
    private let displayPipe = Pipe()
    /// ":N", chosen by Xvfb itself (-displayfd), so parallel runs never collide.
    let display: String

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(width: Int = 1280, height: Int = 800) throws {
        let displayPipe = self.displayPipe
        server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        server.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
        server.standardOutput = displayPipe
        server.standardError = FileHandle.nullDevice
        let server = self.server
        try Self.withSignalsUnblocked { try server.run() }
        // Xvfb writes the display number once it accepts clients.
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.contains("\n"), Date() < deadline, server.isRunning {
            let data = displayPipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
            throw Failure(description: "Xvfb did not report its display (got \"\(text)\")")
        }
        display = ":\(number)"
    }

    /// The output of a program run inside a new D-Bus session on this display. Foundation starts
    /// every child as the leader of a process group of its own: the whole group (bus, app) is
    /// killed by that PID when it overruns `timeoutSeconds`.
    struct Run { var status: Int32?; var stdout: String; var stderr: String }

    func run(_ arguments: [String], environment: [String: String], timeoutSeconds: Double) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-run-session")
        process.arguments = ["--"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env["GDK_BACKEND"] = "x11"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let collected = Collected()
        out.fileHandleForReading.readabilityHandler = { collected.append($0.availableData, error: false) }
        err.fileHandleForReading.readabilityHandler = { collected.append($0.availableData, error: true) }
        try Self.withSignalsUnblocked { try process.run() }
        let group = process.processIdentifier
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        var status: Int32?
        if process.isRunning {
            kill(-group, SIGTERM)
            Thread.sleep(forTimeInterval: 1)
            kill(-group, SIGKILL)
            process.waitUntilExit()
        } else {
            status = process.terminationStatus
            // Whatever the session left behind (a bus daemon, an accessibility registry).
            kill(-group, SIGTERM)
        }
        Thread.sleep(forTimeInterval: 0.2)
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        return Run(status: status, stdout: collected.stdout, stderr: collected.stderr)
    }

    /// Children inherit the spawning thread's signal mask, and the test pool's threads block
    /// signals Xvfb (its scheduler timer) and the app (SIGTERM) rely on: spawn with none blocked.
    static func withSignalsUnblocked<T>(_ body: () throws -> T) rethrows -> T {
        var none = sigset_t(), previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    deinit {
        if server.isRunning {
            kill(server.processIdentifier, SIGTERM)
            server.waitUntilExit()
        }
    }
}

/// Output gathered from a child's pipes.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data(), err = Data()
    func append(_ data: Data, error: Bool) { lock.withLock { if error { err.append(data) } else { out.append(data) } } }
    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }
}
