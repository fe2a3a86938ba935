import Foundation
import RunWalkTestSupport
import Testing

/// `runwalk run`'s full-screen view showing the runner's music: a real mpv (mpv-mpris) on a private bus.
@Suite("runwalk run in a terminal shows the runner's music", .serialized)
struct HandsFreeTerminalTests {
    @Test("the view shows what mpv plays; m pauses mpv, not the workout")
    func showsMusic() throws {
        let tools = ["/usr/bin/tmux", "/usr/bin/mpv", "/usr/bin/sox", "/usr/bin/dbus-daemon", "/usr/bin/gdbus", "/etc/mpv/scripts/mpris.so"]
        let missing = tools.filter { !FileManager.default.fileExists(atPath: $0) }
        guard missing.isEmpty else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("missing in CI: \(missing)") }
            return
        }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rwtmux-music-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tone = folder.appendingPathComponent("tmux-tone.wav").path
        let made = try bus.run("/usr/bin/sox", ["-n", "-r", "8000", tone, "synth", "60", "sine", "440"])
        try #require(made.status == 0, "sox: \(made.stderr)")
        try bus.start("/usr/bin/mpv", ["--no-config", "--script=/etc/mpv/scripts/mpris.so", "--no-video", "--ao=null", "--no-terminal", tone])
        #expect(try bus.waitForName("org.mpris.MediaPlayer2.mpv"))

        let command = "cd '\(RunWalkBinary.repositoryRoot.path)' && DBUS_SESSION_BUS_ADDRESS='\(bus.address)' "
            + "DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/rw-bus RUNWALK_DATA_DIR='\(folder.path)' RUNWALK_CONFIG_DIR='\(folder.path)/config' "
            + "XDG_RUNTIME_DIR='\(folder.path)' '\(RunWalkBinary.url.path)' run '2m warmup' --gps file:SampleTracks/track-loop.nmea "
            + "--speed 2 --voice off --start now --notify off --haptics off --no-record; echo EXIT=$?; sleep 60"
        let tmux = try TerminalViewTests.Tmux(columns: 80, rows: 40, command: command)
        try #require(tmux.status.isEmpty, "tmux new-session: \(tmux.status)")
        var screen = tmux.waitFor("the music") { $0.contains("♪ tmux-tone.wav") }
        #expect(screen.contains("♪ tmux-tone.wav"), "\(screen)")
        #expect(screen.contains("WARM-UP 1/1"), "\(screen)")
        let mpvStatus = { (try? bus.run("/usr/bin/playerctl", ["-p", "mpv", "status"]).stdout) ?? "" }
        #expect(mpvStatus() == "Playing\n")
        tmux.keys("m")
        let deadline = Date().addingTimeInterval(30)
        while mpvStatus() != "Paused\n" && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(mpvStatus() == "Paused\n", "m reaches mpv")
        #expect(!tmux.screen().contains("PAUSED"), "the workout runs on")
        tmux.keys("q")
        tmux.keys("q")
        screen = tmux.waitFor("the end") { $0.contains("EXIT=") }
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }
}
