import Foundation
import RunWalkCore
import RunWalkDesktop
import RunWalkRuntime
import RunWalkTestSupport
import Testing

/// The runner's music: a real mpv with mpv-mpris on a private bus, followed and commanded by RunWalk.
@Suite("Music client (mpv + mpv-mpris on a private bus)")
struct MusicClientTests {
    static let tools = ["/usr/bin/dbus-daemon", "/usr/bin/gdbus", "/usr/bin/playerctl", "/usr/bin/mpv"]
    static let mprisScript = "/etc/mpv/scripts/mpris.so"

    /// A 440 Hz tone, 16-bit mono at 8 kHz, `seconds` long: music with no tags (its title is its file name).
    static func tone(_ folder: URL, _ name: String, seconds: Int = 120) throws -> URL {
        let rate = 8000, samples = rate * seconds
        var data = Data("RIFF".utf8)
        func le32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func le16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        le32(36 + samples * 2); data.append(contentsOf: Array("WAVEfmt ".utf8)); le32(16); le16(1); le16(1); le32(rate); le32(rate * 2); le16(2); le16(16)
        data.append(contentsOf: Array("data".utf8)); le32(samples * 2)
        for index in 0..<samples { le16(Int(Int16(8000 * sin(2 * Double.pi * 440 * Double(index) / Double(rate)))) & 0xffff) }
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    private func setUp() throws -> (PrivateBus, URL)? {
        guard busToolsPresent(Self.tools) else { return nil }
        guard FileManager.default.fileExists(atPath: Self.mprisScript) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("mpv-mpris is missing in CI") }
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rwmusic-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (try PrivateBus(), folder)
    }

    private func mpv(_ bus: PrivateBus, _ arguments: [String]) throws {
        try bus.start("/usr/bin/mpv", ["--no-config", "--script=\(Self.mprisScript)", "--no-video", "--ao=null", "--no-terminal"] + arguments)
        #expect(try bus.waitForName("org.mpris.MediaPlayer2.mpv"), "mpv-mpris is on the bus")
    }

    private func options(_ bus: PrivateBus, music: String? = nil) -> HandsFree.Options {
        var options = HandsFree.Options()
        options.notifications = false
        options.haptics = false
        options.sessionBusAddress = bus.address
        options.musicURI = music
        return options
    }

    @Test("RunWalk shows what mpv plays; its play/pause and next reach mpv")
    func followAndCommand() async throws {
        guard let (bus, folder) = try setUp() else { return }
        defer { bus.stop(); try? FileManager.default.removeItem(at: folder) }
        let first = try Self.tone(folder, "tone-a.wav"), second = try Self.tone(folder, "tone-b.wav")
        // --keep-open: mpv stays (paused) at the playlist's end instead of leaving the bus under a slow run.
        try mpv(bus, ["--pause", "--keep-open=yes", first.path, second.path])

        let control = SessionControl()
        control.publish(runningStatus())
        let handsFree = HandsFree.start(control: control, options: options(bus), warn: { Issue.record("unexpected warning: \($0)") })
        defer { handsFree.stop() }
        let player = try #require(handsFree.musicPlayer)
        #expect(await eventually { player.nowPlaying?.title == "tone-a.wav" }, "\(String(describing: player.nowPlaying))")
        #expect(player.nowPlaying?.player == "org.mpris.MediaPlayer2.mpv")
        #expect(player.nowPlaying?.playbackStatus == "Paused")

        player.playPause()
        #expect(await eventually { (try? bus.run("/usr/bin/playerctl", ["-p", "mpv", "status"]).stdout) == "Playing\n" })
        #expect(await eventually { player.nowPlaying?.playbackStatus == "Playing" })
        player.next()
        #expect(await eventually { player.nowPlaying?.title == "tone-b.wav" }, "\(String(describing: player.nowPlaying))")
        // RunWalk's own player is not taken for the runner's music.
        #expect(handsFree.mprisName == "org.mpris.MediaPlayer2.runwalk")
    }

    @Test("--music opens the file on the runner's player at the start and pauses it at the end")
    func musicOption() async throws {
        guard let (bus, folder) = try setUp() else { return }
        defer { bus.stop(); try? FileManager.default.removeItem(at: folder) }
        let playlist = try Self.tone(folder, "playlist-tone.wav"), before = try Self.tone(folder, "before.wav")
        // Paused on another file (mpv-mpris reports an idle mpv as Stopped even while it plays).
        try mpv(bus, ["--pause", "--keep-open=yes", before.path])

        let control = SessionControl()
        control.publish(runningStatus())
        let seen = WarningLog()
        let handsFree = HandsFree.start(control: control, options: options(bus, music: playlist.path), warn: { seen.add($0) })
        handsFree.observeMusic { now in if let line = now?.line { seen.add("music: " + line) } }
        let status = { (try? bus.run("/usr/bin/playerctl", ["-p", "mpv", "status"]).stdout) ?? "" }
        let title = { (try? bus.run("/usr/bin/playerctl", ["-p", "mpv", "metadata", "title"]).stdout) ?? "" }
        #expect(await eventually { title() == "playlist-tone.wav\n" && status() == "Playing\n" }, "\(title()) \(status())")
        #expect(await eventually { seen.lines.contains("music: playlist-tone.wav") }, "\(seen.lines)")
        handsFree.stop()
        #expect(await eventually { status() == "Paused\n" }, "paused at the end: \(status())")
        #expect(seen.lines.allSatisfy { $0.hasPrefix("music: ") }, "no warnings: \(seen.lines)")
    }
}
