import Foundation
import Testing
import RunWalkTestSupport

extension AppUI {
/// The app under Xvfb, read and driven through AT-SPI (Tests/RunWalkAppTests/live_page.py): a
/// workout from a sample track at 10× speed; Pause, Skip and a held Stop; the finished page
/// against the stored summary; the session in `runwalk history`; screenshots of every page.
@Suite(.serialized, .enabled(if: XSession.shouldRun, "needs Xvfb, dbus-run-session, xdotool, imagemagick and python3-pyatspi (scripts/test installs them)"))
struct AppLivePageTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Where the screenshots go (the README names it).
    static let screenshots = repositoryRoot.appendingPathComponent(".build/screenshots")

    /// An executable built beside this test bundle.
    static func product(_ name: String) -> URL {
        var dir = Bundle.main.bundleURL
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path) {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent(name)
    }

    @Test(arguments: ["light", "dark"])
    func runPauseSkipHoldStopThenHistory(scheme: String) async throws {
        let app = Self.product("runwalk-app"), cli = Self.product("runwalk")
        try #require(FileManager.default.isExecutableFile(atPath: app.path), "runwalk-app is not built")
        try #require(FileManager.default.isExecutableFile(atPath: cli.path), "runwalk is not built")
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-app-test-\(getpid())-\(scheme)")
        try? FileManager.default.removeItem(at: temporary)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let baseEnvironment = [
            "RUNWALK_DATA_DIR": temporary.appendingPathComponent("data").path,
            "RUNWALK_CONFIG_DIR": temporary.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": temporary.appendingPathComponent("cache").path,
            "XDG_RUNTIME_DIR": temporary.path,
        ]
        // A stand-in default browser for text/html, so "Open report" can be checked.
        let opened = temporary.appendingPathComponent("opened.txt").path
        let browser = temporary.appendingPathComponent("browser.sh").path
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" > \(opened)\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        let applications = temporary.appendingPathComponent("xdg-data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Test browser\nExec=\(browser) %u\nMimeType=text/html;\nNoDisplay=true\n"
            .write(to: applications.appendingPathComponent("runwalk-test-browser.desktop"), atomically: true, encoding: .utf8)
        let xdgConfig = temporary.appendingPathComponent("xdg-config")
        try FileManager.default.createDirectory(at: xdgConfig, withIntermediateDirectories: true)
        try "[Default Applications]\ntext/html=runwalk-test-browser.desktop\n"
            .write(to: xdgConfig.appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
        var environment = baseEnvironment
        environment["XDG_DATA_HOME"] = temporary.appendingPathComponent("xdg-data").path
        environment["XDG_CONFIG_HOME"] = xdgConfig.path

        let track = Self.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.nmea").path
        let script = Self.repositoryRoot.appendingPathComponent("Tests/RunWalkAppTests/live_page.py").path

        let x = try XSession()
        let run = try await x.run(["/usr/bin/python3", script, "--app", app.path, "--track", track, "--speed", "10",
                             "--scheme", scheme, "--shots", Self.screenshots.path, "--opened", opened],
                            environment: environment, timeoutSeconds: 150)
        #expect(run.status == 0, "live_page.py failed: \(run.stderr.suffix(3000))")
        let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                                "no result from live_page.py (standard output: \(run.stdout.suffix(500)))")
        func text(_ key: String) -> String { seen[key] as? String ?? "(missing \(key))" }

        // The start page: the GPS state read before starting.
        #expect(text("start_gps").hasPrefix("GPS fix "), "start page GPS: \(text("start_gps"))")
        #expect(text("start_totals") == "18 phases · 30:00")
        #expect(text("spec_problem").hasPrefix("unknown phase \"jgo\""), "spec problem: \(text("spec_problem"))")
        #expect(text("spec_problem").contains("column 16"))
        #expect(text("spec_totals_again") == "18 phases · 30:00")
        // The live page: the warm-up, its time left, a distance.
        #expect(text("phase") == "Warm-up")
        #expect(text("phase_number") == "Phase 1 of 18")
        #expect(text("time_left").wholeMatch(of: /[0-9]+:[0-9]{2}/) != nil, "time left: \(text("time_left"))")
        #expect(text("distance").hasSuffix(" km") && text("distance") != "0.00 km")
        // A phone on its side: the clock and every button within the window (side by side).
        #expect((seen["landscape_outside"] as? [String]) == [], "at 720×360: \(seen["landscape_outside"] ?? "(missing)")")
        // Pause: paused, and the time left stands still for 1.5 s (15 s of workout at 10×).
        #expect(text("paused_phase_number").contains("Paused"))
        #expect(text("paused_time_1") == text("paused_time_2"))
        // Skip: the next phase.
        #expect(text("after_skip_phase") == "Run")
        #expect(text("after_skip_number").hasPrefix("Phase 2 of 18"))
        // Closing asked first, and "Keep running" kept the session.
        #expect(["Run", "Walk"].contains(text("after_close_phase")))
        // A click on Stop does not stop; the hold does.
        #expect(["Run", "Walk"].contains(text("after_click_phase")))
        #expect(text("result") == "Workout stopped")

        // The finished page shows the stored summary's distance; the session is in the history.
        let report = try Self.runCLI(cli, ["report", "last", "--format", "json"], environment: environment)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        let metres = try #require(summary["distance_m"] as? Double)
        #expect(metres > 50)
        #expect(text("finished_distance") == String(format: "%.2f km", metres / 1000))
        #expect(text("reopened_distance") == text("finished_distance"))
        #expect((summary["workout"] as? String)?.hasPrefix("5m warmup") == true)
        let history = try Self.runCLI(cli, ["history"], environment: environment)
        #expect(history.contains("5m warmup") && history.contains("stopped"), "runwalk history:\n\(history)")
        #expect((seen["history_rows"] as? [String])?.count == 1)
        #expect(seen["app_exit"] as? Int == 0)
        // "Open report" handed the default browser the session's HTML report.
        let uri = text("opened")
        // GIO hands a local file to the browser as its path (or its file:// URI).
        #expect(uri.hasSuffix("/cache/runwalk/session-1.html") && (uri.hasPrefix("/") || uri.hasPrefix("file://")), "opened: \(uri)")
        let reportPath = temporary.appendingPathComponent("cache/runwalk/session-1.html").path
        let html = (try? String(contentsOfFile: reportPath, encoding: .utf8)) ?? ""
        #expect(html.contains("<html") && html.contains("5m warmup"), "report at \(reportPath)")

        // Every page at both sizes.
        for page in ["start", "start-error", "live", "paused", "finished", "history"] {
            for size in ["360x720", "1280x800"] {
                let shot = Self.screenshots.appendingPathComponent("\(page)-\(size)-\(scheme).png").path
                let bytes = (try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
                #expect(bytes > 1000, "screenshot \(shot)")
            }
        }
    }

    static func runCLI(_ cli: URL, _ arguments: [String], environment: [String: String]) throws -> String {
        try ChildProcess.run(cli.path, arguments, environment: environment, seconds: 60).stdout
    }
}
}
