import Foundation
import RunWalkCore
import RunWalkDesktop
import RunWalkRuntime
import RunWalkTestSupport
import Testing

/// The session as an MPRIS player on a private session bus, driven and read by the real `playerctl`.
@Suite("MPRIS player (playerctl on a private bus)")
struct MPRISServerTests {
    static let tools = ["/usr/bin/dbus-daemon", "/usr/bin/gdbus", "/usr/bin/playerctl"]

    private func start(_ control: SessionControl, on bus: PrivateBus) -> HandsFree {
        var options = HandsFree.Options()
        options.notifications = false
        options.haptics = false
        options.followMusic = false
        options.sessionBusAddress = bus.address
        return HandsFree.start(control: control, options: options, warn: { Issue.record("unexpected warning: \($0)") })
    }

    @Test("playerctl lists the player, reads title and status, and its commands reach the session")
    func playerctlDrivesTheSession() async throws {
        guard busToolsPresent(Self.tools) else { return }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let control = SessionControl()
        let log = CommandLog(control)
        control.publish(runningStatus())
        let handsFree = start(control, on: bus)
        defer { handsFree.stop() }
        #expect(handsFree.mprisName == "org.mpris.MediaPlayer2.runwalk")

        let list = try bus.run("/usr/bin/playerctl", ["-l"])
        #expect(list.stdout.split(separator: "\n").contains("runwalk"), "\(list)")
        let title = try bus.run("/usr/bin/playerctl", ["-p", "runwalk", "metadata", "title"])
        #expect(title.stdout.trimmingCharacters(in: .newlines) == "Run 3 of 5 · 1:12 left", "\(title)")
        let artist = try bus.run("/usr/bin/playerctl", ["-p", "runwalk", "metadata", "artist"])
        #expect(artist.stdout.contains("5m warmup, 2x(90s run, 60s walk), 5m cooldown"))
        let length = try bus.run("/usr/bin/playerctl", ["-p", "runwalk", "metadata", "mpris:length"])
        #expect(length.stdout.trimmingCharacters(in: .newlines) == "90000000")
        let position = try bus.run("/usr/bin/playerctl", ["-p", "runwalk", "position"])
        #expect(position.stdout.trimmingCharacters(in: .newlines) == "18.000000" || position.stdout.hasPrefix("18"), "\(position)")
        #expect(try bus.run("/usr/bin/playerctl", ["-p", "runwalk", "status"]).stdout == "Playing\n")
        let identity = try bus.call("org.mpris.MediaPlayer2.runwalk", "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.Get",
                                    ["org.mpris.MediaPlayer2", "Identity"])
        #expect(identity == "(<'RunWalk'>,)")

        for (verb, command) in [("play-pause", SessionCommand.toggle), ("next", .skip), ("previous", .restart), ("pause", .pause),
                                ("play", .resume), ("stop", .stop)] {
            let result = try bus.run("/usr/bin/playerctl", ["-p", "runwalk", verb])
            #expect(result.status == 0, "\(verb): \(result.stderr)")
            #expect(await log.waitFor(command), "\(verb) → \(command): got \(log.commands)")
        }
        #expect(log.commands == [.toggle, .skip, .restart, .pause, .resume, .stop])
    }

    @Test("playerctl --follow sees the phase change, the pause and the end; the countdown at most once a second")
    func followSeesUpdates() async throws {
        guard busToolsPresent(Self.tools) else { return }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let control = SessionControl()
        control.publish(runningStatus())
        let handsFree = start(control, on: bus)
        defer { handsFree.stop() }
        let follow = try bus.start("/usr/bin/playerctl", ["-p", "runwalk", "--follow", "metadata", "--format", "{{status}} {{title}}"])
        defer { follow.stop() }
        #expect(await eventually { follow.stdout.contains("Playing Run 3 of 5 · 1:12 left") }, "\(follow.stdout)")

        control.publish(runningStatus(index: 3, kind: .walk, planned: 60, elapsed: 0))
        #expect(await eventually { follow.stdout.contains("Playing Walk 4 of 5 · 1:00 left") }, "\(follow.stdout)")
        control.publish(runningStatus(index: 3, kind: .walk, planned: 60, elapsed: 5, paused: true))
        #expect(await eventually { follow.stdout.contains("Paused Walk 4 of 5 · 0:55 left") }, "\(follow.stdout)")
        // Ten countdown-only changes within a fraction of a second: signalled at most once in that second.
        let before = follow.stdout.components(separatedBy: "\n").count
        for second in 6...15 { control.publish(runningStatus(index: 3, kind: .walk, planned: 60, elapsed: Double(second), paused: true)) }
        try await Task.sleep(for: .milliseconds(300))
        let ticks = follow.stdout.components(separatedBy: "\n").count - before
        #expect(ticks <= 1, "countdown-only changes within one second: \(ticks) signals\n\(follow.stdout)")

        var end = runningStatus()
        end.stage = .completed
        end.phase = nil
        control.publish(end)
        #expect(await eventually { follow.stdout.contains("Stopped Workout complete") }, "\(follow.stdout)")
    }

    @Test("a second session on the same bus takes the .instancePID name; stop() gives the name back")
    func secondInstanceAndRelease() async throws {
        guard busToolsPresent(Self.tools) else { return }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let first = SessionControl(), second = SessionControl()
        first.publish(runningStatus())
        second.publish(runningStatus(index: 0, kind: .warmup, planned: 300, elapsed: 0))
        let one = start(first, on: bus)
        let two = start(second, on: bus)
        #expect(one.mprisName == "org.mpris.MediaPlayer2.runwalk")
        #expect(two.mprisName == "org.mpris.MediaPlayer2.runwalk.instance\(getpid())")
        let list = try bus.run("/usr/bin/playerctl", ["-l"]).stdout
        #expect(list.contains("runwalk\n") && list.contains("runwalk.instance\(getpid())"), "\(list)")
        one.stop()
        two.stop()
        #expect(try bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                             ["org.mpris.MediaPlayer2.runwalk"]) == "(false,)")
    }
}
