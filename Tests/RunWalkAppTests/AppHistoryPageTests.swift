import Foundation
import Testing
import RunWalkTestSupport

extension AppUI {
/// The history and session pages under Xvfb, read and driven through AT-SPI
/// (Tests/RunWalkAppTests/history_page.py), on a private store `runwalk replay` filled: the
/// month with its run days, a session's intervals, a rename `runwalk history` sees, a GPX
/// export that validates, a delete; a damaged store's banner. Screenshots of both pages.
@Suite(.serialized, .enabled(if: XSession.shouldRun, "needs Xvfb, dbus-run-session, xdotool, imagemagick and python3-pyatspi (scripts/test installs them)"))
struct AppHistoryPageTests {
    static let root = AppLivePageTests.repositoryRoot

    /// Private folders for the app and the CLI; the documents folder through XDG user-dirs.
    static func environment(_ temporary: URL) throws -> [String: String] {
        let config = temporary.appendingPathComponent("xdg-config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "XDG_DOCUMENTS_DIR=\"\(temporary.path)/documents\"\n".write(to: config.appendingPathComponent("user-dirs.dirs"), atomically: true, encoding: .utf8)
        return [
            "RUNWALK_DATA_DIR": temporary.appendingPathComponent("data").path,
            "RUNWALK_CONFIG_DIR": temporary.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": temporary.appendingPathComponent("cache").path,
            "XDG_DATA_HOME": temporary.appendingPathComponent("xdg-data").path,
            "XDG_CONFIG_HOME": config.path,
            "XDG_STATE_HOME": temporary.appendingPathComponent("state").path,
            "XDG_RUNTIME_DIR": temporary.path,
        ]
    }

    static func folder(_ name: String) throws -> URL {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("runwalk-history-test-\(getpid())-\(name)")
        try? FileManager.default.removeItem(at: temporary)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        return temporary
    }

    static func script(_ arguments: [String], environment: [String: String]) async throws -> [String: Any] {
        let app = AppLivePageTests.product("runwalk-app")
        try #require(FileManager.default.isExecutableFile(atPath: app.path), "runwalk-app is not built")
        let script = root.appendingPathComponent("Tests/RunWalkAppTests/history_page.py").path
        let x = try XSession()
        let run = try await x.run(["/usr/bin/python3", script, "--app", app.path, "--shots", AppLivePageTests.screenshots.path] + arguments,
                            environment: environment, timeoutSeconds: 150)
        #expect(run.status == 0, "history_page.py failed: \(run.stderr.suffix(3000))")
        let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try #require((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                            "no result from history_page.py (standard output: \(run.stdout.suffix(500)))")
    }

    @Test(arguments: ["light", "dark"])
    func calendarSessionRenameExportDelete(scheme: String) async throws {
        let cli = AppLivePageTests.product("runwalk")
        try #require(FileManager.default.isExecutableFile(atPath: cli.path), "runwalk is not built")
        let temporary = try Self.folder(scheme)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let environment = try Self.environment(temporary)
        let track = Self.root.appendingPathComponent("SampleTracks/track-loop.nmea").path
        for workout in ["2m warmup, 3x(2m run, 1m walk), 2m cooldown", "5m warmup, 4x(3m run, 90s walk), 5m cooldown"] {
            _ = try AppLivePageTests.runCLI(cli, ["replay", track, "--workout", workout, "--voice", "off"], environment: environment)
        }
        let seen = try await Self.script(["--scheme", scheme], environment: environment)
        func text(_ key: String) -> String { seen[key] as? String ?? "(missing \(key))" }

        // The month of the sessions, its run days marked and named, totals and records.
        let runDays = seen["run_days"] as? [String] ?? []
        #expect(!runDays.isEmpty, "no run day in the calendar of \(text("month"))")
        #expect(runDays.allSatisfy { $0.contains(" km") }, "\(runDays)")
        #expect(text("month_totals").hasPrefix("Month: 2 runs · "), "\(text("month_totals"))")
        // The sample track was recorded in April 2026: the calendar opens there and steps on and back.
        #expect(text("month") == "April 2026")
        #expect(text("next_month") == "May 2026" && text("month_again") == "April 2026")
        #expect((seen["records"] as? [String] ?? []).contains { $0.hasPrefix("Longest run: ") }, "\(seen["records"] ?? "")")
        #expect(seen["unnamed_controls"] as? Int == 0 && seen["unnamed_controls_session"] as? Int == 0)
        // The newest session: its intervals, planned against actual; its charts and route.
        #expect(text("session_title").hasPrefix("5m warmup"))
        let intervals = seen["intervals"] as? [String] ?? []
        #expect(intervals.count == 10 && intervals.first?.hasPrefix("1. Warm-up · ") == true && intervals.first?.hasSuffix(" of 5:00") == true, "\(intervals)")
        #expect(Set(seen["pictures"] as? [String] ?? []) == ["Pace chart", "Distance chart", "Route map"])

        // The rename is the store's: `runwalk history` shows it.
        #expect(text("renamed_title") == "Sunday long run")
        let history = try AppLivePageTests.runCLI(cli, ["history"], environment: environment)
        #expect(history.contains("Sunday long run"), "runwalk history:\n\(history)")
        // The GPX export is where the page says, and valid GPX 1.1.
        let path = String(text("export").dropFirst("Exported to ".count))
        #expect(path.hasPrefix(temporary.appendingPathComponent("documents/RunWalk").path) && path.hasSuffix(".gpx"), "\(path)")
        let schema = Self.root.appendingPathComponent("Tests/Fixtures/schemas/gpx-with-trackpointextension.xsd").path
        let lint = try ChildProcess.run("/usr/bin/xmllint", ["--noout", "--schema", schema, path], environment: environment, seconds: 60)
        #expect(lint.status == 0, "xmllint: \(lint.stderr)")
        // The older session is deleted (after the confirmation): one left, here and in the CLI.
        #expect(seen["openers_after_delete"] as? [String] == ["Open session 2"])
        let after = try AppLivePageTests.runCLI(cli, ["history"], environment: environment)
        #expect(after.contains("Sunday long run") && !after.contains("2m warmup"), "runwalk history:\n\(after)")
        #expect(seen["app_exit"] as? Int == 0)
        for page in ["history-month", "session"] {
            for size in ["360x720", "1280x800"] {
                let shot = AppLivePageTests.screenshots.appendingPathComponent("\(page)-\(size)-\(scheme).png").path
                #expect(((try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0) > 1000, "screenshot \(shot)")
            }
        }
    }

    @Test func damagedStoreIsABannerNamingTheFile() async throws {
        let temporary = try Self.folder("damaged")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let environment = try Self.environment(temporary)
        let data = temporary.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        // A file that is not a database at all (a half-copied or overwritten store).
        let junk = Array(repeating: "this is not a database\n", count: 400).joined()
        try junk.write(to: data.appendingPathComponent("runwalk.sqlite"), atomically: true, encoding: .utf8)
        let seen = try await Self.script(["--damaged"], environment: environment)
        let problem = seen["problem"] as? String ?? ""
        #expect(problem.contains("runwalk.sqlite"), "banner: \(problem)")
        #expect(problem.contains("damaged") || problem.contains("not a database"), "banner: \(problem)")
        #expect(seen["app_exit"] as? Int == 0)
        for size in ["360x720", "1280x800"] {
            let shot = AppLivePageTests.screenshots.appendingPathComponent("history-damaged-\(size)-light.png").path
            #expect(((try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0) > 1000, "screenshot \(shot)")
        }
    }
}
}
