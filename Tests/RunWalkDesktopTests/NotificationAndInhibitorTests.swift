import Foundation
import RunWalkCore
import RunWalkDesktop
import RunWalkRuntime
import RunWalkTestSupport
import Testing

/// Notifications and the logind inhibitor against python3-dbusmock's templates on private buses.
@Suite("Notifications and the sleep inhibitor (dbusmock on private buses)")
struct NotificationAndInhibitorTests {
    static let tools = ["/usr/bin/dbus-daemon", "/usr/bin/gdbus", "/usr/bin/python3"]

    /// Whether Debian's python3 has dbusmock (CI must: scripts/test installs python3-dbusmock).
    static var hasDBusMock: Bool {
        let present = FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock")
        if !present, ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("python3-dbusmock is missing in CI") }
        return present
    }

    private static func options(session: String?, system: String? = nil) -> HandsFree.Options {
        var options = HandsFree.Options()
        options.mpris = false
        options.haptics = false
        options.followMusic = false
        options.notifications = session != nil
        options.sessionBusAddress = session
        options.systemBusAddress = system
        options.inhibitSleep = system != nil
        return options
    }

    @Test("one notification per phase, replaced not stacked, with Pause and Skip actions that reach the session; withdrawn at the end")
    func notifications() async throws {
        guard busToolsPresent(Self.tools), Self.hasDBusMock else { return }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("rwnotify-\(getpid())-\(UUID().uuidString.prefix(6)).log")
        defer { try? FileManager.default.removeItem(at: log) }
        try bus.start("/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon", "-l", log.path])
        #expect(try bus.waitForName("org.freedesktop.Notifications"))

        let control = SessionControl()
        let commands = CommandLog(control)
        control.publish(runningStatus(index: 2, kind: .run, planned: 90, elapsed: 0))
        let handsFree = HandsFree.start(control: control, options: Self.options(session: bus.address),
                                        warn: { Issue.record("unexpected warning: \($0)") })
        defer { handsFree.stop() }
        func notifies() -> [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init).filter { $0.contains(" Notify ") }
        }
        #expect(await eventually { notifies().count == 1 })
        control.publish(runningStatus(index: 2, kind: .run, planned: 90, elapsed: 1))
        control.publish(runningStatus(index: 3, kind: .walk, planned: 60, elapsed: 0))
        #expect(await eventually { notifies().count == 2 }, "\(notifies())")
        try await Task.sleep(for: .milliseconds(200))
        let calls = notifies()
        #expect(calls.count == 2, "one per phase, not per status: \(calls)")
        #expect(calls.first?.contains("\"RunWalk\" 0 ") == true, "the first is new: \(calls)")
        #expect(calls.last?.contains("\"RunWalk\" 1 ") == true, "the second replaces the first (replaces_id 1): \(calls)")
        #expect(calls.last?.contains("Walk · 1:00 · 4 of 5") == true, "\(calls)")
        #expect(calls.last?.contains("\"pause\"") == true && calls.last?.contains("\"skip\"") == true, "\(calls)")

        for (key, command) in [("skip", SessionCommand.skip), ("pause", .toggle)] {
            _ = try bus.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Mock.EmitSignal",
                             ["org.freedesktop.Notifications", "ActionInvoked", "us", "[<uint32 1>, <'\(key)'>]"])
            #expect(await commands.waitFor(command), "\(key) → \(command): \(commands.commands)")
        }
        // Another notification's actions are not ours.
        _ = try bus.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Mock.EmitSignal",
                         ["org.freedesktop.Notifications", "ActionInvoked", "us", "[<uint32 7>, <'skip'>]"])
        try await Task.sleep(for: .milliseconds(200))
        #expect(commands.commands == [.skip, .toggle])
        handsFree.stop()
        let closed = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("CloseNotification")
        #expect(closed, "the notification is withdrawn at the end")
    }

    @Test("the logind inhibitor (sleep:idle, block) is held until stop() and released then")
    func inhibitor() async throws {
        guard busToolsPresent(Self.tools), Self.hasDBusMock else { return }
        let system = try PrivateBus()
        defer { system.stop() }
        try system.start("/usr/bin/python3", ["-m", "dbusmock", "--template", "logind"], system: true)
        #expect(try system.waitForName("org.freedesktop.login1"))
        let list = { try system.call("org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager.ListInhibitors") }
        #expect(try list() == "(@a(ssssuu) [],)")

        let control = SessionControl()
        control.publish(runningStatus())
        let handsFree = HandsFree.start(control: control, options: Self.options(session: nil, system: system.address),
                                        warn: { Issue.record("unexpected warning: \($0)") })
        let held = try list()
        #expect(held.contains("'sleep:idle', 'RunWalk', 'Workout in progress', 'block'"), "\(held)")
        handsFree.stop()
        let released = try await eventually { try list() == "(@a(ssssuu) [],)" }
        #expect(released, "the inhibitor is released at stop()")
    }

    @Test("no session bus, no logind, no notification server: the session goes on and each is said once")
    func missingServices() async throws {
        guard busToolsPresent(Self.tools) else { return }
        let bus = try PrivateBus() // a bus with nothing on it
        defer { bus.stop() }
        let warnings = WarningLog()
        var options = HandsFree.Options()
        options.sessionBusAddress = bus.address
        options.systemBusAddress = "unix:path=/nonexistent/runwalk-test-bus"
        options.inhibitSleep = true
        options.musicURI = "/tmp/no-such-music.ogg"
        let control = SessionControl()
        let commands = CommandLog(control)
        let handsFree = HandsFree.start(control: control, options: options, warn: { warnings.add($0) })
        for index in 0..<3 { control.publish(runningStatus(index: index, elapsed: 80)) }
        control.send(.skip)
        #expect(await commands.waitFor(.skip))
        handsFree.stop()
        let lines = warnings.lines
        #expect(lines.filter { $0.contains("may suspend") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains("no notifications") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains("no haptics") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains("no music player") }.count == 1, "\(lines)")
        #expect(lines.count == 4, "\(lines)")

        let noBus = WarningLog()
        options.sessionBusAddress = "unix:path=/nonexistent/runwalk-test-session-bus"
        options.inhibitSleep = false
        HandsFree.start(control: SessionControl(), options: options, warn: { noBus.add($0) }).stop()
        #expect(noBus.lines.count == 1 && noBus.lines.first?.contains("no lock-screen controls, notifications, haptics or music") == true,
                "\(noBus.lines)")
    }
}

/// Warnings a hands-free adapter gave.
final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    func add(_ line: String) { lock.withLock { kept.append(line) } }
    var lines: [String] { lock.withLock { kept } }
}
