import Foundation
import RunWalkCore
import RunWalkHost
import RunWalkIO
import RunWalkTestSupport
import Testing

/// `runwalk run --hr auto` against the BlueZ stand-in (Tests/RunWalkDesktopTests/bluez_standin.py)
/// owning org.bluez on a private system bus: about one sample a second recorded, a drop marked
/// as a gap (hr_lost, hr_back), the heart rate in `control status --json` (issue 32).
@Suite("runwalk run --hr (end to end, BlueZ stand-in)", .serialized)
struct HeartRateRunTests {
    static let standIn = RunWalkBinary.repositoryRoot.appendingPathComponent("Tests/RunWalkDesktopTests/bluez_standin.py").path
    static var available: Bool {
        PrivateBus.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            && (try? ChildProcess("/usr/bin/python3", ["-c", "import dbus, gi"]).wait(seconds: 20)) == 0
    }

    private func eventually(seconds: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    @Test("a 25 s run: samples at 1 Hz, the drop a gap said once, hr and hr_zone in the status, hr_avg in the summary",
          .enabled(if: available, "needs dbus-daemon, gdbus and /usr/bin/python3 with python3-dbus and python3-gi"),
          .timeLimit(.minutes(2)))
    func liveRun() throws {
        let system = try PrivateBus()
        defer { system.stop() }
        try system.start("/usr/bin/python3", [Self.standIn, "--drop-after", "8", "--drop-for", "4"], system: true)
        #expect(try system.waitForName("org.bluez"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rwhr-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("control.sock").path
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": system.address, "RUNWALK_CONFIG_DIR": folder.appendingPathComponent("config").path,
                           "RUNWALK_DATA_DIR": folder.appendingPathComponent("data").path, ControlSocketPath.overrideVariable: socket]
        let track = RunWalkBinary.repositoryRoot.appendingPathComponent("SampleTracks/demo-short.nmea").path
        let run = try ChildProcess("/usr/bin/env", ["-u", "DBUS_SESSION_BUS_ADDRESS"] + environment.map { "\($0.key)=\($0.value)" } + [
            RunWalkBinary.url.path, "run", "25s run", "--gps", "file:\(track)", "--clock", "monotonic", "--speed", "1", "--start", "now",
            "--countdown", "0", "--voice", "off", "--hr", "auto", "--json",
        ])
        defer { run.stop() }
        // The status shows the heart rate once the strap is connected.
        var status = ""
        #expect(eventually {
            let control = try? ChildProcess("/usr/bin/env", environment.map { "\($0.key)=\($0.value)" } + [
                RunWalkBinary.url.path, "control", "status", "--json"])
            _ = control?.wait(seconds: 10)
            status = control?.stdout ?? ""
            return status.contains("\"hr\"") && status.contains("\"hr_zone\"")
        }, "status: \(status)")
        #expect(run.wait(seconds: 90) == 0, "\(run.stderr)")
        let summary = try SummaryJSON.decode(run.stdout)
        let average = try #require(summary.heartRateAverage)
        #expect((140...149).contains(Int(average.rounded())) && summary.heartRateMax.map { (140...149).contains($0) } == true)
        let events = summary.events ?? []
        let lost = events.filter { $0.kind == .heartRateLost }, back = events.filter { $0.kind == .heartRateBack }
        #expect(lost.count == 1 && back.count == 1, "\(events)")
        let lostAt = try #require(lost.first).atSeconds, backAt = try #require(back.first).atSeconds
        #expect(backAt - lostAt >= 3, "the drop is a gap of its length")
        #expect(run.stderr.components(separatedBy: "runwalk: heart rate lost").count == 2, "said once: \(run.stderr)")
        // The voice says the loss once, at once, and the return once, after 3 s of heart rates again.
        let spoken = summary.cues.filter { $0.kind == .heartRateSensor }
        #expect(spoken.map(\.text) == ["Heart rate lost.", "Heart rate back."], "\(summary.cues)")
        if spoken.count == 2 {
            #expect(abs(spoken[0].atSeconds - lostAt) < 1 && spoken[1].atSeconds >= backAt + 2, "\(spoken) lost \(lostAt) back \(backAt)")
        }
        #expect(run.stderr.contains("  HR 14"), "the status line shows the heart rate: \(run.stderr)")
        // About one sample a second while connected, none in the gap (in zones: time with heart rate only).
        let zones = try #require(summary.heartRateZoneSeconds).reduce(0, +)
        let connected = 25 - (backAt - lostAt)
        #expect(zones > connected - 6 && zones <= 25 - (backAt - lostAt) + 5.5, "zones \(zones) s, connected about \(connected) s")
    }

    @Test("sensors scan lists the strap: name, address, battery, signal",
          .enabled(if: available, "needs dbus-daemon, gdbus and /usr/bin/python3 with python3-dbus and python3-gi"),
          .timeLimit(.minutes(1)))
    func scan() throws {
        let system = try PrivateBus()
        defer { system.stop() }
        try system.start("/usr/bin/python3", [Self.standIn], system: true)
        #expect(try system.waitForName("org.bluez"))
        let scan = try ChildProcess("/usr/bin/env", ["DBUS_SYSTEM_BUS_ADDRESS=\(system.address)", RunWalkBinary.url.path,
                                                     "sensors", "scan", "--seconds", "0.5"])
        defer { scan.stop() }
        #expect(scan.wait(seconds: 30) == 0, "\(scan.stderr)")
        let lines = scan.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(scan.stdout)")
        #expect(lines.last == "Polar H10 A1B2C3D4        C0:FF:EE:00:12:34     87 %   -61 dBm", "\(scan.stdout)")
    }

    @Test("replay of a watch's GPX with heart rate: per-phase hr in the JSON, the chart in the HTML report, hr in fixes jsonl")
    func watchReplay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rwhrw-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var points = ""
        for t in 0..<130 {
            let time = UTCTime(milliseconds: 1_776_000_000_000 + Int64(t) * 1000).iso8601(fractionDigits: 0)
            points += "<trkpt lat=\"\(47.37 + 3 * Double(t) / 111_195)\" lon=\"8.54\"><time>\(time)</time><extensions>"
                + "<ns3:TrackPointExtension><ns3:hr>\(t < 60 ? 110 : 160)</ns3:hr></ns3:TrackPointExtension></extensions></trkpt>\n"
        }
        let gpx = folder.appendingPathComponent("watch.gpx")
        try ("<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"watch\" xmlns=\"http://www.topografix.com/GPX/1/1\" "
             + "xmlns:ns3=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\"><trk><trkseg>\n\(points)</trkseg></trk></gpx>\n")
            .write(to: gpx, atomically: true, encoding: .utf8)
        let environment = ["RUNWALK_CONFIG_DIR=\(folder.path)/config", "RUNWALK_DATA_DIR=\(folder.path)/data"]
        func runwalk(_ arguments: [String]) throws -> ChildProcess {
            let child = try ChildProcess("/usr/bin/env", environment + [RunWalkBinary.url.path] + arguments)
            _ = child.wait(seconds: 60)
            return child
        }
        let replay = try runwalk(["replay", gpx.path, "--workout", "1m walk, 1m run", "--voice", "off", "--json"])
        let summary = try SummaryJSON.decode(replay.stdout)
        #expect(summary.phases.map(\.heartRateAverage) == [110, 160], "\(replay.stderr)")
        #expect(summary.heartRateMax == 160 && summary.heartRateZoneSeconds != nil)
        let html = folder.appendingPathComponent("report.html").path
        _ = try runwalk(["report", "last", "--format", "html", "-o", html])
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("series heart") && page.contains("<th scope=\"col\">Avg HR</th>"))
        let fixes = try runwalk(["fixes", gpx.path, "--format", "jsonl"])
        #expect(fixes.stdout.split(separator: "\n").first?.hasSuffix(",\"hr\":110}") == true, "\(fixes.stdout.prefix(300))")
        let text = try runwalk(["report", "last"])
        #expect(text.stdout.contains("Heart     avg 135 bpm, max 160 bpm"), "\(text.stdout)")
    }
}
