import Foundation

/// A private D-Bus daemon a test starts (and stops by its PID, also when the test fails): a
/// "session" or, for logind mocks, a stand-in "system" bus. Its configuration lists no service
/// folders, so nothing on the machine (feedbackd, playerctld) is activated behind a test's back.
public final class PrivateBus: @unchecked Sendable {
    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS` / `DBUS_SYSTEM_BUS_ADDRESS`.
    public let address: String
    private let daemon: ChildProcess
    private let folder: URL
    private var helpers: [ChildProcess] = []
    private let lock = NSLock()

    /// Whether the D-Bus tools the tests use are installed.
    public static var isInstalled: Bool {
        ["/usr/bin/dbus-daemon", "/usr/bin/gdbus"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts a bus and waits for its address.
    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rwbus-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(folder.path)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        daemon = try ChildProcess("/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--nopidfile", "--print-address=1"])
        let deadline = Date().addingTimeInterval(10)
        while !daemon.stdout.contains("\n") && Date() < deadline && daemon.isRunning { Thread.sleep(forTimeInterval: 0.01) }
        address = daemon.stdout.split(separator: "\n").first.map(String.init) ?? ""
        guard !address.isEmpty else {
            daemon.stop()
            throw PrivateBusError("dbus-daemon gave no address: \(daemon.stderr)")
        }
    }

    /// Starts `executable` with the bus as its session bus (and, with `system`, as its system bus too);
    /// it is stopped with the bus.
    @discardableResult
    public func start(_ executable: String, _ arguments: [String], system: Bool = false, extra: [String: String] = [:]) throws -> ChildProcess {
        var variables = ["DBUS_SESSION_BUS_ADDRESS=\(address)"]
        if system { variables.append("DBUS_SYSTEM_BUS_ADDRESS=\(address)") }
        variables += extra.map { "\($0.key)=\($0.value)" }
        let child = try ChildProcess("/usr/bin/env", variables + [executable] + arguments)
        lock.withLock { helpers.append(child) }
        return child
    }

    /// Runs a short command on the bus and waits for it (up to `seconds`): status, standard output and error.
    public func run(_ executable: String, _ arguments: [String], seconds: Double = 10) throws -> (status: Int32?, stdout: String, stderr: String) {
        let child = try ChildProcess("/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=\(address)", executable] + arguments)
        defer { child.stop(graceSeconds: 0.2) }
        let status = child.wait(seconds: seconds)
        return (status, child.stdout, child.stderr)
    }

    /// `gdbus call` on this bus; the reply as gdbus prints it.
    public func call(_ destination: String, _ path: String, _ method: String, _ arguments: [String] = []) throws -> String {
        let result = try run("/usr/bin/gdbus", ["call", "--address", address, "--dest", destination, "--object-path", path,
                                                "--method", method] + arguments)
        guard result.status == 0 else { throw PrivateBusError("gdbus call \(method): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until `name` has an owner on the bus.
    public func waitForName(_ name: String, seconds: Double = 10) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", [name]) == "(true,)" { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }

    /// Stops the helpers and the daemon (by PID) and removes the bus's folder.
    public func stop() {
        for helper in lock.withLock({ helpers }).reversed() { helper.stop(graceSeconds: 1) }
        daemon.stop(graceSeconds: 1)
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}

/// A private bus that could not be set up.
public struct PrivateBusError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
