import Foundation
import Testing
import RunWalkTestSupport

extension AppUI {
/// The start page's plan card and the plans page under Xvfb, driven through AT-SPI
/// (Tests/RunWalkAppTests/plans/plans_page.py), checked against `runwalk plan status --json`:
/// the CLI and the app read and write the same enrolment.
@Suite(.serialized, .enabled(if: XSession.shouldRun, "needs Xvfb, dbus-run-session, xdotool, imagemagick and python3-pyatspi (scripts/test installs them)"))
struct AppPlansPageTests {
    static let repositoryRoot = AppLivePageTests.repositoryRoot

    @Test(arguments: ["light", "dark"])
    func planCardAndPlansPageAgreeWithTheCLI(scheme: String) async throws {
        let app = AppLivePageTests.product("runwalk-app"), cli = AppLivePageTests.product("runwalk")
        try #require(FileManager.default.isExecutableFile(atPath: app.path), "runwalk-app is not built")
        try #require(FileManager.default.isExecutableFile(atPath: cli.path), "runwalk is not built")
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-app-plans-\(getpid())-\(scheme)")
        try? FileManager.default.removeItem(at: temporary)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let environment = [
            "RUNWALK_DATA_DIR": temporary.appendingPathComponent("data").path,
            "RUNWALK_CONFIG_DIR": temporary.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": temporary.appendingPathComponent("cache").path,
            "XDG_RUNTIME_DIR": temporary.path,
            // A Monday, so the plan's first day (Mon, Wed, Fri) is due today.
            "RUNWALK_TODAY": "2026-11-23",
        ]
        func runCLI(_ arguments: [String]) throws -> ChildProcess.Result {
            try ChildProcess.run(cli.path, arguments, environment: environment, seconds: 60)
        }
        // The CLI starts couch to 5K and imports a plan of the runner's own.
        #expect(try runCLI(["plan", "start", "c25k"]).status == 0)
        let exported = try runCLI(["plan", "export", "c25k"]).stdout
        let hills = temporary.appendingPathComponent("hills.json")
        try exported.replacingOccurrences(of: "\"c25k\"", with: "\"hills\"").replacingOccurrences(of: "\"Couch to 5K\"", with: "\"Hill repeats\"")
            .write(to: hills, atomically: true, encoding: .utf8)
        #expect(try runCLI(["plan", "import", hills.path]).status == 0)
        let imported = temporary.appendingPathComponent("config/plans/hills.json").path
        #expect(FileManager.default.fileExists(atPath: imported))

        let track = Self.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.nmea").path
        let script = Self.repositoryRoot.appendingPathComponent("Tests/RunWalkAppTests/plans/plans_page.py").path
        let x = try XSession()
        let run = try await x.run(["/usr/bin/python3", script, "--app", app.path, "--cli", cli.path, "--track", track, "--scheme", scheme,
                             "--shots", AppLivePageTests.screenshots.path, "--imported", imported],
                            environment: environment, timeoutSeconds: 240)
        #expect(run.status == 0, "plans_page.py failed: \(run.stderr.suffix(3000))")
        let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                                "no result from plans_page.py (standard output: \(run.stdout.suffix(500)))")
        func text(_ key: String) -> String { seen[key] as? String ?? "(missing \(key))" }
        func status(_ key: String) -> [String: Any] { seen[key] as? [String: Any] ?? [:] }
        func next(_ key: String) -> [String: Any] { status(key)["next"] as? [String: Any] ?? [:] }

        // After `runwalk plan start c25k` the start page offers week 1, day 1, due today.
        #expect(text("plan_day") == "Week 1 · Day 1 of Couch to 5K")
        #expect(text("plan_due") == "Due today")
        #expect(text("plan_detail") == "30:00 · 5m warmup, 8x(60s run, 90s walk), 5m cooldown")
        // One tap starts the day `runwalk run next` would: c25k week 1, day 1 has 18 phases.
        #expect(text("plan_phase") == "Warm-up")
        #expect(text("plan_phase_number") == "Phase 1 of 18")
        #expect(text("plan_result") == "Workout stopped")
        // Stopped in the warm-up: the day was cut short, offered again (the CLI sees the same).
        #expect(text("plan_day_after").contains("it is offered again"))
        #expect(next("status_after_run")["week"] as? Int == 1 && next("status_after_run")["day"] as? Int == 1)
        #expect((status("status_after_run")["last_short"] as? [String: Any])?["session"] as? Int == 1)

        // --page plans opens the plans page: the plan followed and its weeks.
        #expect(text("followed") == "Couch to 5K")
        #expect(text("done") == "Done 0 of 27 days (0 %)")
        let weeks = seen["weeks"] as? [String] ?? []
        #expect(weeks.count == 9)
        #expect(weeks.first?.hasPrefix("Week 1: Day 1 short, day 2 to do, day 3 to do") == true, "weeks: \(weeks)")
        // Skip, Repeat and Stop in the app are what `runwalk plan status` then shows.
        #expect(text("done_after_skip") == "Done 0 of 27 days (0 %), 1 skipped")
        #expect(status("status_after_skip")["skipped"] as? Int == 1)
        #expect(next("status_after_skip")["day"] as? Int == 2)
        #expect(status("status_after_repeat")["skipped"] as? Int == 0)
        #expect(next("status_after_repeat")["day"] as? Int == 1)
        #expect(text("followed_after_stop").hasPrefix("No plan yet"))
        #expect(status("status_after_stop")["active"] as? Bool == false)
        // Started in the app with Sunday added: the CLI follows it on those days.
        #expect(text("followed_after_start") == "Galloway beginner 5K")
        #expect(status("status_after_start")["plan"] as? String == "galloway-5k")
        #expect(status("status_after_start")["days"] as? [String] == ["mon", "wed", "fri", "sun"])
        // A plan whose file went missing: one line naming the file, the app still running.
        #expect(text("missing_note").hasSuffix("config/plans/hills.json: no such file: the plan hills was removed"), "note: \(text("missing_note"))")
        #expect(seen["still_running"] as? Bool == true)
        #expect(status("status_after_missing")["active"] as? Bool == false)
        for key in ["app_exit_start", "app_exit_plans", "app_exit_missing"] { #expect(seen[key] as? Int == 0, "\(key)") }

        for page in ["start-plan", "plans", "plans-none"] {
            for size in ["360x720", "1280x800"] {
                let shot = AppLivePageTests.screenshots.appendingPathComponent("\(page)-\(size)-\(scheme).png").path
                let bytes = (try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
                #expect(bytes > 1000, "screenshot \(shot)")
            }
        }
    }

    /// `--page NAME` with a name the app does not have: one line, exit 2, no window.
    @Test func unknownPageIsOneLineAndExitTwo() throws {
        let app = AppLivePageTests.product("runwalk-app")
        try #require(FileManager.default.isExecutableFile(atPath: app.path), "runwalk-app is not built")
        let run = try ChildProcess.run(app.path, ["--page", "map"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""], seconds: 30)
        #expect(run.status == 2)
        #expect(run.stderr == "runwalk-app: --page: no page named \"map\" (start, plans, workouts, settings or history)\n")
    }
}
}
