import Foundation
import Testing
import RunWalkTestSupport

extension AppUI {
/// The app through the one session service (issue 29), under Xvfb, a private session bus and
/// AT-SPI (Tests/RunWalkAppTests/app_session.py): the plan's next day, `runwalk control` and
/// SIGUSR1 on an app session, one session at a time, recovery after `kill -9`, and the same
/// phases and distance as `runwalk run` for the same track and workout.
@Suite(.serialized, .enabled(if: XSession.shouldRun, "needs Xvfb, dbus-run-session, xdotool, imagemagick and python3-pyatspi (scripts/test installs them)"))
struct AppSessionServiceTests {
    static let track = AppLivePageTests.repositoryRoot.appendingPathComponent("SampleTracks/track-loop.nmea").path
    static let script = AppLivePageTests.repositoryRoot.appendingPathComponent("Tests/RunWalkAppTests/app_session.py").path
    static let workout = "5m warmup, 8x(90s run, 60s walk), 5m cooldown"

    /// Private folders for one test (removed at its end) and the two programs.
    final class Setup {
        let folder: URL
        let app = AppLivePageTests.product("runwalk-app"), cli = AppLivePageTests.product("runwalk")
        init(_ name: String) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-app-service-\(getpid())-\(name)")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try #require(FileManager.default.isExecutableFile(atPath: app.path), "runwalk-app is not built")
            try #require(FileManager.default.isExecutableFile(atPath: cli.path), "runwalk is not built")
        }
        deinit { try? FileManager.default.removeItem(at: folder) }

        var environment: [String: String] {
            ["RUNWALK_DATA_DIR": folder.appendingPathComponent("data").path,
             "RUNWALK_CONFIG_DIR": folder.appendingPathComponent("config").path,
             "XDG_CONFIG_HOME": folder.appendingPathComponent("xdg-config").path,
             "XDG_DATA_HOME": folder.appendingPathComponent("xdg-data").path,
             "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
             "XDG_RUNTIME_DIR": folder.path,
             "RUNWALK_TODAY": "2026-11-02"]
        }

        /// What app_session.py saw in `mode`.
        func drive(_ mode: String, workout: String = AppSessionServiceTests.workout, speed: String = "10",
                   timeoutSeconds: Double = 200) async throws -> [String: Any] {
            let x = try XSession()
            let run = try await x.run(["/usr/bin/python3", AppSessionServiceTests.script, "--app", app.path, "--cli", cli.path,
                                 "--track", AppSessionServiceTests.track, "--speed", speed, "--workout", workout, "--mode", mode,
                                 "--shots", AppLivePageTests.screenshots.path],
                                environment: environment, timeoutSeconds: timeoutSeconds)
            let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let seen = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            #expect(run.status == 0, "app_session.py \(mode) failed: \(run.stderr.suffix(3000))")
            return try #require(seen, "no result from app_session.py (standard output: \(run.stdout.suffix(500)))")
        }

        func cli(_ arguments: [String]) throws -> (status: Int32?, stdout: String, stderr: String) {
            let result = try ChildProcess.run(cli.path, arguments, environment: environment, seconds: 120)
            return (result.status, result.stdout, result.stderr)
        }
    }

    @Test func workoutNextRunsThePlansDayAndMarksItDone() async throws {
        let setup = try Setup("next")
        let started = try setup.cli(["plan", "start", "c25k"])
        #expect(started.status == 0, "plan start: \(started.stderr)")
        let seen = try await setup.drive("finish", workout: "next", speed: "50")
        #expect(seen["result"] as? String == "Workout complete", "result: \(seen["result"] ?? "none")")
        #expect((seen["note"] as? String)?.hasPrefix("Week 1, day 1 of Couch to 5K done") == true, "note: \(seen["note"] ?? "none")")
        let status = try setup.cli(["plan", "status"])
        #expect(status.stdout.contains("Next: week 1, day 2"), "plan status:\n\(status.stdout)")
        #expect(status.stdout.contains("Done 1 of 27 days"), "plan status:\n\(status.stdout)")
    }

    @Test func anAppSessionAnswersControlAndSignalsAndIsTheOnlyOne() async throws {
        let setup = try Setup("control")
        let seen = try await setup.drive("control")
        let status = try #require(seen["status"] as? [String: Any])
        #expect(status["status"] as? Int == 0, "control status: \(status["stderr"] ?? "")")
        let json = try #require(try JSONSerialization.jsonObject(with: Data((status["stdout"] as? String ?? "").utf8)) as? [String: Any])
        #expect(json["workout"] as? String == Self.workout)
        let pause = try #require(seen["pause"] as? [String: Any])
        #expect(pause["status"] as? Int == 0, "control pause: \(pause["stderr"] ?? "")")
        #expect((seen["paused_number"] as? String)?.contains("Paused") == true)
        #expect((seen["resumed_number"] as? String)?.contains("Paused") == false)
        #expect((seen["paused_again_number"] as? String)?.contains("Paused") == true)
        #expect(seen["app_alive"] as? Bool == true)
        // A second start from the CLI is refused, naming the app's session.
        let second = try #require(seen["second_start"] as? [String: Any])
        let pid = seen["app_pid"] as? Int ?? -1
        #expect(second["status"] as? Int == 1)
        #expect((second["stderr"] as? String ?? "").contains("another session is running: \(Self.workout) in runwalk-app (pid \(pid))"),
                "second start: \(second["stderr"] ?? "")")
    }

    @Test func afterKillNineTheNextStartRecoversTheRun() async throws {
        let setup = try Setup("crash")
        let seen = try await setup.drive("crash")
        #expect(seen["open_before"] as? Int == 1)
        #expect((seen["recovered"] as? String)?.hasPrefix("Recovered your run of \(Self.workout): ") == true,
                "recovered: \(seen["recovered"] ?? "none")")
        #expect(seen["open_after"] as? Int == 0)
    }

    @Test func theAppAndRunGiveTheSamePhasesAndDistance() async throws {
        let setup = try Setup("parity")
        let seen = try await setup.drive("finish", speed: "50")
        #expect(seen["result"] as? String == "Workout complete")
        let app = try #require(try JSONSerialization.jsonObject(with: Data(try setup.cli(["report", "last", "--format", "json"]).stdout.utf8)) as? [String: Any])
        let run = try setup.cli(["run", Self.workout, "--gps", "file:" + Self.track, "--speed", "50", "--voice", "off", "--json"])
        #expect(run.status == 0, "run: \(run.stderr.suffix(1000))")
        let cli = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        func phases(_ summary: [String: Any]) -> [String] { (summary["phases"] as? [[String: Any]] ?? []).map { $0["kind"] as? String ?? "?" } }
        #expect(phases(app).count == 18)
        #expect(phases(app) == phases(cli))
        let appMetres = try #require(app["distance_m"] as? Double), cliMetres = try #require(cli["distance_m"] as? Double)
        print("parity: app \(appMetres) m, run \(cliMetres) m, \(phases(app).count) phases alike: \(phases(app) == phases(cli))")
        #expect(abs(appMetres - cliMetres) / cliMetres < 0.001, "app \(appMetres) m, run \(cliMetres) m")
    }
}
}
