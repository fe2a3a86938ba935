import Foundation
import Testing
import RunWalkStore
import RunWalkTestSupport

@Suite("runwalk session, workouts and history --format html (end to end)", .serialized)
struct SessionEditingTests {
    final class Setup {
        let folder: TemporaryDataFolder
        let config: URL
        init() throws {
            folder = try TemporaryDataFolder("runwalk-edit")
            config = folder.url.appendingPathComponent("config")
        }
        func run(_ arguments: [String], today: String = "2026-11-25") throws -> RunWalkBinary.Output {
            try folder.run(arguments, extraEnvironment: ["RUNWALK_TODAY": today, "RUNWALK_CONFIG_DIR": config.path])
        }
    }

    @Test("session rm refuses without a terminal and --yes; deletes with --yes; rename and note show in history")
    func removeRenameNote() throws {
        let s = try Setup()
        #expect(try s.run(["replay", Sample.demo, "--workout", Sample.demoWorkout]).status == 0)
        #expect(try s.run(["replay", Sample.loop, "--workout", Sample.loopWorkout]).status == 0)
        let refused = try s.run(["session", "rm", "1"])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("runwalk: error: session rm 1: standard input is not a terminal, so I cannot ask: add --yes"), "\(refused.stderr)")
        #expect(try s.run(["history"]).stdout.split(separator: "\n").count == 3, "nothing deleted")

        let renamed = try s.run(["session", "rename", "2", "Track Tuesday"])
        #expect(renamed.stdout == "Session 2 is now \"Track Tuesday\".\n")
        #expect(try s.run(["session", "note", "last", "windy"]).stdout == "Noted on session 2.\n")
        let history = try s.run(["history"]).stdout
        #expect(history.contains("   2  2026-04-12 06:30  Track Tuesday "), "\(history)")
        #expect(try s.run(["session", "rename", "9", "x"]).status == 1)
        #expect(try s.run(["session", "note", "2", "bell\u{7}"]).status == 2)

        let records = try s.run(["history", "--records"]).stdout
        #expect(records.contains("session 2"))
        let deleted = try s.run(["session", "rm", "2", "--yes"])
        #expect(deleted.status == 0)
        #expect(deleted.stdout.hasPrefix("Deleted session 2 (2026-04-12 06:30, \(Sample.loopWorkout), 3.88 km)."), "\(deleted.stdout)")
        let after = try s.run(["history", "--records"]).stdout
        #expect(!after.contains("session 2"), "records follow: \(after)")
        let store = try RunWalkStore(location: s.folder.location, create: false)
        #expect(try store.fixCount(sessionID: 2) == 0, "its fixes went with it")
        #expect(try s.run(["session", "rm", "2", "--yes"]).status == 1)
    }

    @Test("session rm on a terminal asks, and keeps the session unless the answer is yes",
          .enabled(if: PseudoTerminalRun.script != nil, "needs util-linux script for a pseudo-terminal"))
    func asksOnATerminal() throws {
        let s = try Setup()
        #expect(try s.run(["replay", Sample.demo, "--workout", Sample.demoWorkout]).status == 0)
        for (answer, kept) in [("n", true), ("y", false)] {
            let terminal = try PseudoTerminalRun(["session", "rm", "1"], folder: s.folder,
                                                 environment: ["RUNWALK_CONFIG_DIR": s.config.path])
            // The answer goes in once the question is on the screen, as a person would type it.
            guard terminal.waitFor("[y/N]") else { return }
            #expect(terminal.text.contains("Delete session 1 ("), "\(terminal.text)")
            try terminal.answer(answer)
            #expect(terminal.waitForExit() == 0, "answer \(answer): \(terminal.text)")
            #expect(try s.run(["history"]).stdout.contains("   1  ") == kept, "answer \(answer): \(terminal.text)")
        }
    }

    @Test("session rm waiting at its prompt ends on SIGTERM and SIGINT, also when its parent passed them on blocked",
          .enabled(if: PseudoTerminalRun.script != nil, "needs util-linux script for a pseudo-terminal"),
          arguments: [SIGTERM, SIGINT])
    func promptEndsOnSignal(_ signal: Int32) throws {
        let s = try Setup()
        #expect(try s.run(["replay", Sample.demo, "--workout", Sample.demoWorkout]).status == 0)
        // A threaded parent (this test runner's pool threads, some service managers) hands its
        // blocked mask on through exec; `script` passes it on to its command as it got it.
        let terminal = try PseudoTerminalRun(["session", "rm", "1"], folder: s.folder,
                                             environment: ["RUNWALK_CONFIG_DIR": s.config.path],
                                             blockedSignals: [SIGTERM, SIGINT])
        guard terminal.waitFor("[y/N]") else { return }
        let runwalk = try #require(terminal.runwalkPID, "runwalk under script: \(terminal.text)")
        let before = try #require(ProcessSignalState(pid: runwalk))
        #expect(before.blocked & ProcessSignalState.bit(signal) == 0, "runwalk at its prompt blocks signal \(signal): \(before)")
        #expect(before.ignored & ProcessSignalState.bit(signal) == 0, "runwalk at its prompt ignores signal \(signal): \(before)")
        // To runwalk itself, not to script (which would pass it on).
        kill(runwalk, signal)
        #expect(terminal.waitForExit() == 128 + signal, "signal \(signal) at the prompt (\(before)): \(terminal.text)")
        #expect(try s.run(["history"]).stdout.contains("   1  "), "nothing deleted")
    }

    @Test("workouts add, rename, update, rm: clear errors for a name that exists or is missing")
    func workouts() throws {
        let s = try Setup()
        #expect(try s.run(["workouts", "add", "tempo", "10m warmup, 5x(3m run, 2m walk)"]).status == 0)
        var result = try s.run(["workouts", "add", "Tempo", "5m run"])
        #expect(result.status == 2)
        #expect(result.stderr == "runwalk: error: a saved workout named tempo exists: use `runwalk workouts update tempo SPEC` to change it\n")
        result = try s.run(["workouts", "add", "galloway-1-1", "5m run"])
        #expect(result.stderr == "runwalk: error: galloway-1-1 is a built-in workout: choose another name\n")
        result = try s.run(["workouts", "add", "next", "5m run"])
        #expect(result.status == 2 && result.stderr.contains("\"next\" means the next day of your plan"))
        result = try s.run(["workouts", "update", "tempo", "10m warmup, 6x(3m run, 2m wlak)"])
        #expect(result.status == 2 && result.stderr.contains("unknown phase \"wlak\" at column 27"), "\(result.stderr)")
        #expect(try s.run(["workouts", "update", "tempo", "10m warmup, 6x(3m run, 2m walk)"]).status == 0)
        result = try s.run(["workouts", "update", "easy", "5m run"])
        #expect(result.stderr == "runwalk: error: no saved workout named easy (see `runwalk workouts list`)\n")
        result = try s.run(["workouts", "update", "c25k-w1", "5m run"])
        #expect(result.stderr == "runwalk: error: c25k-w1 is built in and cannot be changed: add a copy under another name\n")
        #expect(try s.run(["workouts", "add", "easy", "20m walk"]).status == 0)
        result = try s.run(["workouts", "rename", "tempo", "easy"])
        #expect(result.stderr == "runwalk: error: a saved workout named easy exists: use `runwalk workouts update easy SPEC` to change it\n")
        result = try s.run(["workouts", "rename", "tempo", "bad name"])
        #expect(result.status == 2 && result.stderr.contains("bad workout name"))
        #expect(try s.run(["workouts", "rename", "tempo", "intervals"]).status == 0)
        let saved = try String(contentsOf: s.config.appendingPathComponent("workouts.txt"), encoding: .utf8)
        #expect(saved == "# RunWalk workouts: name = spec\nintervals = 10m warmup, 6x(3m run, 2m walk)\neasy = 20m walk\n", "renamed in place")
        #expect(try s.run(["workouts", "rm", "tempo"]).stderr == "runwalk: error: no saved workout named tempo\n")
        #expect(try s.run(["workouts", "rm", "intervals"]).status == 0)
        let file = s.folder.url.appendingPathComponent("more.txt")
        try "hills = 10x(1m run, 2m walk)\neasy = 30m walk\n".write(to: file, atomically: true, encoding: .utf8)
        result = try s.run(["workouts", "import", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix("a saved workout named easy exists: use `runwalk workouts update easy SPEC` to change it (or import with --replace)\n"))
        #expect(!(try s.run(["workouts", "list"]).stdout.contains("hills")), "nothing imported")
        #expect(try s.run(["workouts", "import", file.path, "--replace"]).status == 0)
        #expect(try s.run(["workouts", "list"]).stdout.contains("easy            saved     30m walk"))
    }

    @Test("plan.done_fraction in settings.conf decides when a session cut short still counts; run next follows the plan live")
    func doneFractionAndRunNext() throws {
        let s = try Setup()
        try FileManager.default.createDirectory(at: s.config, withIntermediateDirectories: true)
        try "plan.done_fraction = 0.2\n".write(to: s.config.appendingPathComponent("settings.conf"), atomically: true, encoding: .utf8)
        #expect(try s.run(["plan", "start", "galloway-5k", "--from", "2026-11-23"]).status == 0)
        // demo-short (4:10) holds the 5-minute warm-up only: no run time at all.
        var result = try s.run(["run", "next", "--gps", "file:\(Sample.demo)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("plan: week 1, day 1 cut short (0 % of the run time, 20 % needed)"), "\(result.stderr)")
        // track-loop (30:00) covers the whole of week 1, day 1 (5 + 15 + 5 minutes).
        result = try s.run(["run", "next", "--gps", "file:\(Sample.loop)"])
        #expect(result.stderr.contains("plan: week 1, day 1 of Galloway beginner 5K done (100 % of the run time)"), "\(result.stderr)")
        try "plan.done_fraction = 1.5\n".write(to: s.config.appendingPathComponent("settings.conf"), atomically: true, encoding: .utf8)
        result = try s.run(["replay", Sample.demo, "--workout", "next"])
        #expect(result.status == 2 && result.stderr.contains("plan.done_fraction = 1.5: expected a number above 0 and at most 1"), "\(result.stderr)")
    }

    @Test("history --format html -o FILE --reports writes the page and each session's report beside it")
    func htmlPage() throws {
        let s = try Setup()
        #expect(try s.run(["replay", Sample.demo, "--workout", Sample.demoWorkout]).status == 0)
        #expect(try s.run(["session", "rename", "1", "<i>park</i>"]).status == 0)
        let page = s.folder.url.appendingPathComponent("out/history.html")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        let result = try s.run(["history", "--format", "html", "-o", page.path, "--reports"])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("href=\"session-1.html\""))
        #expect(html.contains("&lt;i&gt;park&lt;/i&gt;"))
        #expect(!html.contains("http"))
        let report = page.deletingLastPathComponent().appendingPathComponent("session-1.html")
        #expect(try String(contentsOf: report, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        #expect(try s.run(["history", "--reports"]).status == 2)
        #expect(try s.run(["history", "--calendar", "2026-13"]).status == 2)
    }
}
