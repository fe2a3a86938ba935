import Foundation
import Testing
import RunWalkTestSupport

extension AppUI {
/// The settings and workouts pages under Xvfb, driven through AT-SPI
/// (Tests/RunWalkAppTests/settings_page.py): a switch and a typed GPS source land in
/// settings.conf with the runner's comments kept, and `runwalk run` then takes its GPS from the
/// file; a workout typed with a mistake shows it with its column, a good one is added to
/// workouts.txt; a half-edited settings.conf is named with its line and left alone.
@Suite(.serialized, .enabled(if: XSession.shouldRun, "needs Xvfb, dbus-run-session, xdotool, imagemagick and python3-pyatspi (scripts/test installs them)"))
struct AppSettingsPageTests {
    static let settings = """
        # My RunWalk settings
        units = metric      # km, for now
        auto_pause = off    # I stop at lights
        music = ~/Music/run.m3u

        gps = file:/nonexistent.nmea   # a track, for the simulator

        """

    @Test(arguments: ["light", "dark"])
    func settingsAndWorkoutsReachTheFilesTheCommandLineReads(scheme: String) async throws {
        let app = AppLivePageTests.product("runwalk-app"), cli = AppLivePageTests.product("runwalk")
        try #require(FileManager.default.isExecutableFile(atPath: app.path), "runwalk-app is not built")
        try #require(FileManager.default.isExecutableFile(atPath: cli.path), "runwalk is not built")
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-settings-test-\(getpid())-\(scheme)")
        try? FileManager.default.removeItem(at: temporary)
        let config = temporary.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        try Self.settings.write(to: config.appendingPathComponent("settings.conf"), atomically: true, encoding: .utf8)
        let workouts = "# my workouts\ntempo = 10m warmup, 5x(3m run, 2m walk), 10m cooldown\n"
        try workouts.write(to: config.appendingPathComponent("workouts.txt"), atomically: true, encoding: .utf8)
        let environment = [
            "RUNWALK_DATA_DIR": temporary.appendingPathComponent("data").path,
            "RUNWALK_CONFIG_DIR": config.path,
            "XDG_CACHE_HOME": temporary.appendingPathComponent("cache").path,
            "XDG_CONFIG_HOME": temporary.appendingPathComponent("xdg-config").path,
            "XDG_DATA_HOME": temporary.appendingPathComponent("xdg-data").path,
            "XDG_RUNTIME_DIR": temporary.path,
        ]
        let track = AppLivePageTests.repositoryRoot.appendingPathComponent("SampleTracks/demo-short.nmea").path
        let script = AppLivePageTests.repositoryRoot.appendingPathComponent("Tests/RunWalkAppTests/settings_page.py").path

        // Tall enough for the GPS group to be on screen when the script clicks into its field.
        let x = try XSession(width: 1280, height: 1440)
        let run = try await x.run(["/usr/bin/python3", script, "--app", app.path, "--track", track, "--scheme", scheme,
                             "--shots", AppLivePageTests.screenshots.path], environment: environment, timeoutSeconds: 150)
        #expect(run.status == 0, "settings_page.py failed: \(run.stderr.suffix(3000))")
        let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                                "no result from settings_page.py (standard output: \(run.stdout.suffix(500)))")
        func text(_ key: String) -> String { seen[key] as? String ?? "(missing \(key))" }

        // The switch changed its own line; the comment, the other keys and the blank line stayed.
        #expect(text("after_switch") == Self.settings.replacingOccurrences(of: "auto_pause = off    #", with: "auto_pause = on     #"))
        // The typed track replaced the file source in place, comment kept.
        let afterGPS = Self.settings.replacingOccurrences(of: "auto_pause = off    #", with: "auto_pause = on     #")
            .replacingOccurrences(of: "gps = file:/nonexistent.nmea   #", with: "gps = file:\(track) #")
        #expect(text("after_gps") == afterGPS)
        // The spec's mistake was named with its column; the good workout was added, the comment kept.
        #expect(text("spec_problem").contains("jgo") && text("spec_problem").contains("column"), "\(text("spec_problem"))")
        #expect(text("workouts_after_add") == workouts + "hills = 5m warmup, 4x(2m run, 2m walk), 5m cooldown\n")
        // The half-edited file: named with its line, and not rewritten.
        #expect(text("problem").contains("settings.conf") && text("problem").contains("line 2"), "\(text("problem"))")
        #expect(text("broken_after") == text("broken_before"))
        #expect(seen["app_exit"] as? Int == 0)

        // `runwalk` reads what the app wrote: with the file fixed again, `run` takes its GPS from it.
        try afterGPS.write(to: config.appendingPathComponent("settings.conf"), atomically: true, encoding: .utf8)
        let cliRun = try ChildProcess.run(cli.path, ["run", "2m run", "--speed", "50", "--voice", "off", "--no-record", "--json"],
                                          environment: environment, seconds: 60)
        #expect(cliRun.status == 0, "runwalk run: \(cliRun.stderr.suffix(1000))")
        #expect(cliRun.stderr.contains("demo-short.nmea"), "runwalk run took its GPS from settings.conf: \(cliRun.stderr.suffix(1000))")
        let list = try ChildProcess.run(cli.path, ["workouts", "list"], environment: environment, seconds: 30)
        #expect(list.stdout.contains("hills") && list.stdout.contains("4x(2m run, 2m walk)"), "\(list.stdout)")

        for page in ["settings", "workouts", "workouts-error", "settings-broken"] {
            for size in ["360x720", "1280x800"] {
                let shot = AppLivePageTests.screenshots.appendingPathComponent("\(page)-\(size)-\(scheme).png").path
                let bytes = (try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
                #expect(bytes > 1000, "screenshot \(shot)")
            }
        }
    }
}
}
