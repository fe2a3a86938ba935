import Foundation
import RunWalkCore
import RunWalkHost
import RunWalkIO
import RunWalkTestSupport
import Testing

/// A real `runwalk run` on private buses: controlled by `playerctl` (MPRIS), with dbusmock's
/// notification server, a dbusmock feedbackd and a dbusmock logind on a stand-in system bus.
@Suite("runwalk run hands-free (end to end, private buses)", .serialized)
struct HandsFreeRunTests {
    static let tools = ["/usr/bin/dbus-daemon", "/usr/bin/gdbus", "/usr/bin/playerctl", "/usr/bin/python3"]

    static func present() -> Bool {
        let missing = tools.filter { !FileManager.default.isExecutableFile(atPath: $0) }
            + (FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock") ? [] : ["python3-dbusmock"])
        if missing.isEmpty { return true }
        if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("missing in CI: \(missing)") }
        return false
    }

    /// Polls (blocking this test's thread, which needs no other task to progress) up to `seconds`.
    private func eventually(seconds: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    @Test("playerctl pauses, resumes, skips, restarts and stops a live run; notifications, haptics and the inhibitor follow it")
    func playerctlControlsALiveRun() throws {
        guard Self.present() else { return }
        let session = try PrivateBus(), system = try PrivateBus()
        defer { session.stop(); system.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rwhands-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notifyLog = folder.appendingPathComponent("notify.log"), feedbackLog = folder.appendingPathComponent("feedback.log")
        try session.start("/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon", "-l", notifyLog.path])
        try session.start("/usr/bin/python3", ["-m", "dbusmock", "org.sigxcpu.Feedback", "/org/sigxcpu/Feedback", "org.sigxcpu.Feedback",
                                               "-l", feedbackLog.path])
        try system.start("/usr/bin/python3", ["-m", "dbusmock", "--template", "logind"], system: true)
        #expect(try session.waitForName("org.freedesktop.Notifications") && session.waitForName("org.sigxcpu.Feedback"))
        #expect(try system.waitForName("org.freedesktop.login1"))
        _ = try session.call("org.sigxcpu.Feedback", "/org/sigxcpu/Feedback", "org.freedesktop.DBus.Mock.AddMethod",
                             ["org.sigxcpu.Feedback", "TriggerFeedback", "ssa{sv}i", "u", "ret = 1"])
        let inhibitors = {
            (try? system.call("org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager.ListInhibitors")) ?? "?"
        }

        let track = RunWalkBinary.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.nmea").path
        let run = try session.start(RunWalkBinary.url.path, [
            // Real time and long phases: each step waits for its effect however loaded the machine is.
            "run", "10m warmup, 2x(10m run, 10m walk)", "--gps", "file:\(track)", "--speed", "1", "--start", "now",
            "--voice", "off", "--json", "--no-record",
        ], extra: ["DBUS_SYSTEM_BUS_ADDRESS": system.address, "RUNWALK_CONFIG_DIR": folder.appendingPathComponent("config").path,
                   "RUNWALK_DATA_DIR": folder.appendingPathComponent("data").path,
                   ControlSocketPath.overrideVariable: folder.appendingPathComponent("control.sock").path])
        defer { run.stop() }
        func playerctl(_ arguments: String...) -> String {
            (try? session.run("/usr/bin/playerctl", ["-p", "runwalk"] + arguments).stdout.trimmingCharacters(in: .newlines)) ?? ""
        }

        #expect(eventually { playerctl("metadata", "title").hasPrefix("Warm-up 1 of 5 · ") }, "\(playerctl("metadata", "title"))\n\(run.stderr)")
        #expect(playerctl("status") == "Playing")
        #expect(playerctl("metadata", "artist") == "10m warmup, 2x(10m run, 10m walk)")
        #expect(inhibitors().contains("'sleep:idle', 'RunWalk', 'Workout in progress', 'block'"), "\(inhibitors())")

        _ = playerctl("play-pause")
        #expect(eventually { playerctl("status") == "Paused" })
        _ = playerctl("play-pause")
        #expect(eventually { playerctl("status") == "Playing" })
        _ = playerctl("next")
        #expect(eventually { playerctl("metadata", "title").hasPrefix("Run 2 of 5 · ") }, "\(playerctl("metadata", "title"))")
        // Seconds left in the title "Run 2 of 5 · 9:54 left".
        func left() -> Int? {
            let title = playerctl("metadata", "title")
            guard title.hasPrefix("Run 2 of 5 · "), let clock = title.split(separator: " ").dropFirst(5).first else { return nil }
            let parts = clock.split(separator: ":").compactMap { Int($0) }
            return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
        }
        #expect(eventually { (left() ?? 600) <= 594 }, "six seconds into the run: \(playerctl("metadata", "title"))")
        _ = playerctl("previous")
        #expect(eventually { (left() ?? 0) >= 597 }, "restarted from 10:00: \(playerctl("metadata", "title"))")
        _ = playerctl("stop")
        let status = run.wait(seconds: 30)
        #expect(status == 0, "\(run.stderr)")

        let summary = try SummaryJSON.decode(run.stdout)
        #expect(summary.state == .stopped)
        let kinds = (summary.events ?? []).map(\.kind)
        for kind in [SessionEventKind.pause, .resume, .skip, .restart] { #expect(kinds.contains(kind), "\(kind) in \(kinds)") }
        #expect(summary.phases.first?.endReason == .skipped)
        #expect(inhibitors() == "(@a(ssssuu) [],)", "released at the end: \(inhibitors())")
        let notifications = ((try? String(contentsOf: notifyLog, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains(" Notify ") }
        #expect(notifications.contains { $0.contains("Warm-up · 10:00 · 1 of 5") } && notifications.contains { $0.contains("Run · 10:00 · 2 of 5") },
                "\(notifications)")
        #expect(((try? String(contentsOf: notifyLog, encoding: .utf8)) ?? "").contains("CloseNotification"))
        let feedback = (try? String(contentsOf: feedbackLog, encoding: .utf8)) ?? ""
        #expect(feedback.contains("TriggerFeedback \"org.runwalk.RunWalk\" \"message-new-instant\""), "warm-up start: \(feedback)")
        #expect(feedback.contains("\"alarm-clock-elapsed\""), "run start: \(feedback)")
        #expect(feedback.contains("\"phone-incoming-call\""), "the end: \(feedback)")
        for missing in ["no lock-screen", "no notifications", "no haptics", "may suspend"] {
            #expect(!run.stderr.contains(missing), "\(run.stderr)")
        }
    }

    @Test("no session bus and no logind: the run completes, and each absence is said once")
    func noBuses() throws {
        let track = RunWalkBinary.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.nmea").path
        let run = try ChildProcess("/usr/bin/env", [
            "-u", "DBUS_SESSION_BUS_ADDRESS", "-u", "XDG_RUNTIME_DIR", "DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/rw-system-bus",
            "RUNWALK_CONFIG_DIR=/nonexistent/rw-config", RunWalkBinary.url.path,
            "run", "20s warmup", "--gps", "file:\(track)", "--speed", "20", "--start", "now", "--voice", "off", "--json", "--no-record",
        ])
        defer { run.stop() }
        #expect(run.wait(seconds: 30) == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("runwalk: no lock-screen controls, notifications, haptics or music: no session bus") }.count == 1,
                "\(run.stderr)")
        #expect(lines.filter { $0.contains("runwalk: the device may suspend mid-run:") }.count == 1, "\(run.stderr)")
        #expect(try SummaryJSON.decode(run.stdout).state == .completed)
    }

    @Test("settings.conf's music.WORKOUT opens on mpv when that saved workout starts, and mpv is paused at the end")
    func workoutMusic() throws {
        guard Self.present(), FileManager.default.isExecutableFile(atPath: "/usr/bin/mpv"), FileManager.default.isExecutableFile(atPath: "/usr/bin/sox"),
              FileManager.default.fileExists(atPath: "/etc/mpv/scripts/mpris.so") else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("mpv, mpv-mpris or sox missing in CI") }
            return
        }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rwwmusic-\(getpid())-\(UUID().uuidString.prefix(6))")
        let config = folder.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["intervals.wav", "before.wav"] {
            let made = try bus.run("/usr/bin/sox", ["-n", "-r", "8000", folder.appendingPathComponent(name).path, "synth", "120", "sine", "440"])
            try #require(made.status == 0, "sox: \(made.stderr)")
        }
        try "music = \(folder.path)/before.wav\nmusic.galloway-3-1 = \(folder.path)/intervals.wav\n"
            .write(to: config.appendingPathComponent("settings.conf"), atomically: true, encoding: .utf8)
        try bus.start("/usr/bin/mpv", ["--no-config", "--script=/etc/mpv/scripts/mpris.so", "--no-video", "--ao=null", "--no-terminal",
                                       "--pause", "--keep-open=yes", folder.appendingPathComponent("before.wav").path])
        #expect(try bus.waitForName("org.mpris.MediaPlayer2.mpv"))
        let mpv = { (arguments: [String]) in ((try? bus.run("/usr/bin/playerctl", ["-p", "mpv"] + arguments).stdout) ?? "").trimmingCharacters(in: .newlines) }

        let track = RunWalkBinary.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.nmea").path
        let run = try bus.start(RunWalkBinary.url.path, [
            "run", "galloway-3-1", "--gps", "file:\(track)", "--speed", "1", "--start", "now", "--voice", "off", "--json", "--no-record",
            "--notify", "off", "--haptics", "off",
        ], extra: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/rw-bus", "RUNWALK_CONFIG_DIR": config.path,
                   "RUNWALK_DATA_DIR": folder.appendingPathComponent("data").path,
                   ControlSocketPath.overrideVariable: folder.appendingPathComponent("control.sock").path])
        defer { run.stop() }
        #expect(eventually { mpv(["metadata", "title"]) == "intervals.wav" && mpv(["status"]) == "Playing" },
                "\(mpv(["metadata", "title"])) \(mpv(["status"]))\n\(run.stderr)")
        _ = try bus.run("/usr/bin/playerctl", ["-p", "runwalk", "stop"])
        #expect(run.wait(seconds: 30) == 0, "\(run.stderr)")
        #expect(mpv(["status"]) == "Paused", "paused at the end")
    }
}
