import Foundation
import Testing

/// `settings.conf` in the config folder sets voice, language, units and cue kinds; options override it.
@Suite("runwalk settings file (end to end)")
struct SettingsFileTests {
    /// A config folder holding `settings.conf` with `text`, removed afterwards.
    func withSettings(_ text: String, _ body: ([String: String]) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rw-settings-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(text.utf8).write(to: folder.appendingPathComponent("settings.conf"))
        // Owner-only, as runwalk keeps its config folder (it tightens a looser one and says so).
        chmod(folder.path, 0o700)
        chmod(folder.appendingPathComponent("settings.conf").path, 0o600)
        try body(["RUNWALK_CONFIG_DIR": folder.path])
    }

    static let replay = ["replay", "SampleTracks/track-loop.nmea", "--workout", "90s run, 60s walk", "--no-record"]

    @Test("the file's language, units and cue switches apply; the command line overrides them")
    func appliesAndOverrides() throws {
        try withSettings("# mine\nvoice = text\nlanguage = de\nunits = imperial   # miles\ncue.countdown = off\n") { environment in
            let result = try RunWalkBinary.run(Self.replay, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            let cues = result.stderr.split(separator: "\n").map(String.init)
            #expect(cues.first == "[0:00.000] Laufen für 90 Sekunden.")
            #expect(!cues.contains { $0.hasSuffix("] 3") || $0.hasSuffix("] 1") }, "countdown switched off: \(cues)")
            #expect(cues.contains { $0.contains("Training beendet.") && $0.contains("pro Meile") })
            #expect(result.stdout.contains(" mi"))

            let overridden = try RunWalkBinary.run(Self.replay + ["--language", "en", "--units", "metric", "--cue", "countdown=on"],
                                                   environment: environment)
            let lines = overridden.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first == "[0:00.000] Run for 90 seconds.")
            #expect(lines.contains { $0.hasSuffix("] 3") })
            #expect(lines.contains { $0.contains("Workout complete.") && $0.contains("per kilometre") })
        }
    }

    @Test("a mistake in the file exits 2 naming the file, line and column")
    func mistake() throws {
        try withSettings("language = de\ncue.splits = off\n") { environment in
            let result = try RunWalkBinary.run(Self.replay, environment: environment)
            #expect(result.status == 2)
            let path = try #require(environment["RUNWALK_CONFIG_DIR"]) + "/settings.conf"
            #expect(result.stderr.hasPrefix("runwalk: error: \(path): line 2, column 1: unknown setting \"cue.splits\""), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("run takes its GPS source and countdown from the file when --gps and --countdown are not given")
    func gpsAndCountdown() throws {
        try withSettings("gps = file:SampleTracks/demo-short.nmea   # the simulator\ncountdown = 0\n") { environment in
            let result = try RunWalkBinary.run(["run", "1m run", "--speed", "50", "--voice", "off", "--no-record", "--json"],
                                               environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("GPS from NMEA file SampleTracks/demo-short.nmea"), "\(result.stderr)")
            #expect(!result.stdout.contains("start_countdown"), "no countdown: \(result.stdout.prefix(400))")
        }
        try withSettings("gps = serial:/dev/ttyUSB0@123\n") { environment in
            let result = try RunWalkBinary.run(["run", "1m run", "--voice", "off", "--no-record"], environment: environment)
            #expect(result.status == 2)
            let path = try #require(environment["RUNWALK_CONFIG_DIR"]) + "/settings.conf"
            #expect(result.stderr.hasPrefix("runwalk: error: \(path): gps: --gps serial:/dev/ttyUSB0@123: baud rate"), "\(result.stderr)")
        }
    }

    @Test("a bad --cue exits 2 naming the kinds")
    func badCueSwitch() throws {
        let result = try RunWalkBinary.run(Self.replay + ["--cue", "split"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("runwalk: error: --cue split: expected KIND=on or KIND=off, KIND one of transition, countdown"))
    }
}
