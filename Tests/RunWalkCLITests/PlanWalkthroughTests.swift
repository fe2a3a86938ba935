import Foundation
import Testing
import RunWalkStore

/// A runner follows couch-to-5K for four weeks on replayed sample tracks, with the date set
/// by RUNWALK_TODAY: a skipped day, a session cut short and redone, a week repeated, a
/// session deleted; `plan status` is checked after every step.
@Suite("runwalk plan (end to end)", .serialized)
struct PlanWalkthroughTests {
    /// A data folder and a config folder of its own, and the date.
    final class Runner {
        let folder: TemporaryDataFolder
        let config: URL
        var today = "2026-11-02"

        init() throws {
            folder = try TemporaryDataFolder("runwalk-plan")
            config = folder.url.appendingPathComponent("config")
        }

        func run(_ arguments: [String]) throws -> RunWalkBinary.Output {
            try folder.run(arguments, extraEnvironment: ["RUNWALK_TODAY": today, "RUNWALK_CONFIG_DIR": config.path])
        }

        /// Replays a track as the plan's next workout; returns its standard error.
        @discardableResult
        func next(_ track: String = Sample.loop, on day: String, extra: [String] = []) throws -> String {
            today = day
            let result = try run(["replay", track, "--workout", "next"] + extra)
            #expect(result.status == 0, "replay on \(day): \(result.stderr)")
            return result.stderr
        }

        func status() throws -> [String] {
            let result = try run(["plan", "status"])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }

        /// Checks the done count, the next day and when it is due.
        func expectStatus(done: Int, skipped: Int = 0, next: String, when: String,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
            let lines = try status()
            let doneLine = "Done \(done) of 27 days (\(done * 100 / 27) %)" + (skipped > 0 ? ", \(skipped) skipped" : "")
            #expect(lines.count > 2 && lines[1] == doneLine, "on \(today): \(lines)", sourceLocation: sourceLocation)
            #expect(lines.count > 2 && lines[2].hasPrefix("Next: \(next) (") && lines[2].contains(") \(when): "),
                    "on \(today): \(lines)", sourceLocation: sourceLocation)
        }
    }

    /// The first 15 minutes of track-loop: week 2's workout ends in its third run/walk cycle.
    static func shortTrack(in folder: URL) throws -> String {
        // CRLF lines: "\r\n" is one Character, so lines are found with isNewline.
        let text = try String(contentsOf: RunWalkBinary.repositoryRoot.appendingPathComponent(Sample.loop), encoding: .utf8)
        guard let cut = text.range(of: ",064500.") else { throw CocoaError(.fileReadCorruptFile) }
        let lineStart = text[..<cut.lowerBound].lastIndex(where: \.isNewline).map { text.index(after: $0) } ?? text.startIndex
        let url = folder.appendingPathComponent("loop-15min.nmea")
        try String(text[..<lineStart]).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test("four weeks of couch-to-5K: skip, cut short and redo, repeat a week, delete a session")
    func fourWeeks() throws {
        let r = try Runner()
        // Reading commands create no store; following commands say no plan is followed.
        #expect(try r.status() == ["No plan is being followed. `runwalk plan list` shows the plans; `runwalk plan start NAME` starts one."])
        #expect(!r.folder.location.databaseExists)
        for command in ["skip", "repeat", "stop"] {
            let refused = try r.run(["plan", command])
            #expect(refused.status == 2 && refused.stderr.hasPrefix("runwalk: error: no plan is being followed"), "\(refused.stderr)")
        }
        #expect(try r.run(["replay", Sample.demo, "--workout", "next"]).status == 2)
        #expect(!r.folder.location.databaseExists)
        var result = try r.run(["plan", "start", "c25k"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Following Couch to 5K (9 weeks) on mon, wed, fri: week 1, day 1 on Mon 2026-11-02"))
        try r.expectStatus(done: 0, next: "week 1, day 1", when: "today")

        // Week 1: two days run, the third skipped. The first cue names the day.
        let stderr = try r.next(on: "2026-11-02", extra: ["--voice", "text"])
        #expect(stderr.contains("[0:00.000] Week 1, day 1 of couch to 5K.\n"), "\(stderr)")
        #expect(stderr.contains("plan: week 1, day 1 of Couch to 5K done (100 % of the run time)"))
        #expect(stderr.hasSuffix("runwalk: plan: Next: week 1, day 2 (30:00) on Wed 2026-11-04: 5m warmup, 8x(60s run, 90s walk), 5m cooldown\n"), "\(stderr)")
        try r.expectStatus(done: 1, next: "week 1, day 2", when: "on Wed 2026-11-04")
        try r.next(on: "2026-11-04")
        try r.expectStatus(done: 2, next: "week 1, day 3", when: "on Fri 2026-11-06")
        r.today = "2026-11-06"
        result = try r.run(["plan", "skip"])
        #expect(result.stdout.hasPrefix("Skipped week 1, day 3. Next: week 2, day 1 (31:00) on Mon 2026-11-09"), "\(result.stdout)")
        try r.expectStatus(done: 2, skipped: 1, next: "week 2, day 1", when: "on Mon 2026-11-09")

        // Week 2, day 1 cut short after 15 minutes (half the run time): offered again, and redone.
        let short = try Self.shortTrack(in: r.folder.url)
        let cut = try r.next(short, on: "2026-11-09")
        #expect(cut.contains("plan: week 2, day 1 cut short (50 % of the run time, 90 % needed): it is offered again"), "\(cut)")
        try r.expectStatus(done: 2, skipped: 1, next: "week 2, day 1", when: "today")
        #expect(try r.status().contains("Last try: session 3 on 2026-11-09 ran 50 % of the run time: offered again"))
        let json = try r.run(["plan", "status", "--json"])
        #expect(json.stdout == #"{"active":true,"plan":"c25k","title":"Couch to 5K","start":"2026-11-02","days":["mon","wed","fri"],"done":2,"skipped":1,"total":27,"finished":false,"next":{"week":2,"day":1,"workout":"5m warmup, 6x(90s run, 2m walk), 5m cooldown","duration_s":1860,"due":"2026-11-09","overdue":false,"introduction":"Week 2, day 1 of couch to 5K."},"last_short":{"session":3,"on":"2026-11-09","run_fraction":0.5}}"# + "\n")
        #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "valid JSON")
        // The track (30:10) ends in week 2's cool-down (31:00): every run was done, so it counts.
        try r.next(on: "2026-11-11")
        try r.expectStatus(done: 3, skipped: 1, next: "week 2, day 2", when: "on Fri 2026-11-13")
        try r.next(on: "2026-11-13")
        try r.next(on: "2026-11-16")
        try r.expectStatus(done: 5, skipped: 1, next: "week 3, day 1", when: "on Wed 2026-11-18")

        // Week 2 again.
        result = try r.run(["plan", "repeat"])
        #expect(result.stdout.hasPrefix("Week 2 again. Next: week 2, day 1 (31:00) on Wed 2026-11-18"), "\(result.stdout)")
        try r.expectStatus(done: 2, skipped: 1, next: "week 2, day 1", when: "on Wed 2026-11-18")
        for day in ["2026-11-18", "2026-11-20", "2026-11-23"] { try r.next(on: day) }
        try r.expectStatus(done: 5, skipped: 1, next: "week 3, day 1", when: "on Wed 2026-11-25")

        // Week 3 and the start of week 4.
        for day in ["2026-11-25", "2026-11-27", "2026-11-30"] { try r.next(on: day) }
        try r.expectStatus(done: 8, skipped: 1, next: "week 4, day 1", when: "on Wed 2026-12-02")
        let weeks = try r.status().filter { $0.hasPrefix("  week ") }
        #expect(Array(weeks.prefix(4)) == ["  week 1  x x s", "  week 2  x x x", "  week 3  x x x", "  week 4  > . ."])

        // Deleting week 3, day 3's session (the latest) makes that day due again.
        let store = try RunWalkStore(location: r.folder.location, create: false)
        let last = try store.loadSession(.last).info.id
        result = try r.run(["session", "rm", String(last), "--yes"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Plan c25k: week 3, day 3 is to do again."), "\(result.stdout)")
        try r.expectStatus(done: 7, skipped: 1, next: "week 3, day 3", when: "today")

        // The calendar shows the plan days due from today.
        r.today = "2026-12-01"
        let calendar = try r.run(["history", "--calendar", "2026-12"])
        #expect(calendar.status == 0, "\(calendar.stderr)")
        let rows = calendar.stdout.split(separator: "\n").map(String.init)
        #expect(rows.first == "December 2026")
        #expect(rows.contains { $0.hasPrefix("        1    2+   3    4+   5    6  ") }, "\(rows)")

        // Stopping keeps the history; status then says no plan is followed.
        result = try r.run(["plan", "stop"])
        #expect(result.stdout == "Stopped following Couch to 5K after 7 of 27 days.\n")
        #expect(try r.status().first?.hasPrefix("No plan is being followed.") == true)
        #expect(try r.run(["replay", Sample.demo, "--workout", "next"]).status == 2)
    }

    @Test("plan import of a wrong file: one line naming file, place, plan, week, day and field; exit 2; nothing changed")
    func importErrors() throws {
        let r = try Runner()
        let file = r.folder.url.appendingPathComponent("mine.json")
        let cases: [(String, String)] = [
            ("""
            {"name": "mine", "title": "Mine", "weeks": [
              {"days": [{"workout": "5m warmup, 8x(60s run, 90s walk)"}]},
              {"days": [{"workout": "5m warmup"}, {"workout": "10x(1m run, 1m jgo)"}]}
            ]}
            """, "mine.json: line 3, column 67: plan \"mine\", week 2, day 2, field \"workout\": spec column 16: "),
            ("""
            {"name": "mine", "weeks": [{"days": [{"workout": "5m run", "notes": "x"}]}]}
            """, "mine.json: line 1, column 69: plan \"mine\", week 1, day 1, field \"notes\": unknown field (expected workout, note)"),
            ("{\"name\": \"mine\", \"weeks\": [{\"days\": []}]}",
             "mine.json: line 1, column 37: plan \"mine\", week 1, field \"days\": expected a non-empty array of days, found an array"),
            ("{\"name\": \"mine\",\n \"weeks\": [}", "mine.json: line 2, column 12: unexpected \"}\": expected a value"),
            ("{\"title\": \"x\", \"weeks\": []}", "mine.json: line 1, column 1: field \"name\": missing"),
        ]
        for (text, expected) in cases {
            try text.write(to: file, atomically: true, encoding: .utf8)
            let result = try r.run(["plan", "import", file.path])
            #expect(result.status == 2)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "one line: \(result.stderr)")
            #expect(result.stderr.hasPrefix("runwalk: error: \(file.path.dropLast(9))\(expected)"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: r.config.appendingPathComponent("plans").path), "nothing saved")
        }
        #expect(try r.run(["plan", "list"]).stdout.split(separator: "\n").count == 3)
        let show = try r.run(["plan", "show", "c25k"]).stdout.split(separator: "\n").map(String.init)
        #expect(show.first == "Couch to 5K (c25k): 9 weeks, 3 days a week")
        #expect(show.count == 1 + 9 * 4)
        #expect(show.contains("  day 3  40:00  5m warmup, 30m run, 5m cooldown"))
        #expect(try r.run(["plan", "show", "c26k"]).stderr == "runwalk: error: no plan named c26k (plans: c25k, galloway-5k, runwalk-10k)\n")

        // A good file imports, then exports the same plan; a second import needs --replace.
        let good = try r.run(["plan", "export", "c25k"]).stdout.replacingOccurrences(of: "\"c25k\"", with: "\"my-c25k\"")
        try good.write(to: file, atomically: true, encoding: .utf8)
        #expect(try r.run(["plan", "import", file.path]).status == 0)
        #expect(try r.run(["plan", "export", "my-c25k"]).stdout == good)
        let again = try r.run(["plan", "import", file.path])
        #expect(again.status == 2 && again.stderr.contains("a plan named \"my-c25k\" exists: use --replace"))
        #expect(try r.run(["plan", "start", "my-c25k", "--days", "tue,thu,sun", "--from", "2026-11-03"]).stdout
            .hasPrefix("Following Couch to 5K (9 weeks) on tue, thu, sun: week 1, day 1 on Tue 2026-11-03"))
        let bad = try r.run(["plan", "start", "c25k", "--days", "mon,funday"])
        #expect(bad.status == 2 && bad.stderr.contains("\"funday\" is not a day of the week"))
    }
}
