import RunWalkAppModel
import RunWalkCore
import Testing

@Suite struct FinishedPageModelTests {
    @Test func plannedAgainstActualAndSplits() {
        let summary = Summary(
            workout: "1m warmup, 2m run", startUTC: "2026-04-21T19:00:00Z", durationSeconds: 150, movingTimeSeconds: 150,
            elapsedSeconds: 170, distanceMetres: 1100, averagePaceSecondsPerKm: 136.4,
            state: .stopped, units: .metric,
            phases: [
                .init(index: 0, kind: .warmup, startSeconds: 0, durationSeconds: 60, planned: .init(durationSeconds: 60, distanceMetres: nil),
                      distanceMetres: 300, averagePaceSecondsPerKm: 200, endReason: .completed),
                .init(index: 1, kind: .run, startSeconds: 60, durationSeconds: 90, planned: .init(durationSeconds: 120, distanceMetres: nil),
                      distanceMetres: 800, averagePaceSecondsPerKm: 112.5, endReason: .stopped),
            ],
            splits: [.init(index: 1, distanceMetres: 1000, elapsedSeconds: 140, splitSeconds: 140, paceSecondsPerKm: 140)],
            cues: [], fixes: .init(epochs: 150, used: 150, rejected: 0, linesBad: 0))
        var paused = summary
        paused.pausedSeconds = 20
        let model = FinishedPageModel(paused)
        #expect(model.title == "Workout stopped")
        #expect(model.distance == "1.10 km")
        #expect(model.duration == "2:30")
        #expect(model.detail == "Elapsed 2:50 · paused 0:20")
        #expect(model.intervals.map(\.phase) == ["Warm-up", "Run"])
        #expect(model.intervals[1].planned == "2:00")
        #expect(model.intervals[1].actual == "1:30")
        #expect(model.intervals[1].distance == "800 m")
        #expect(model.intervals[1].note == "stopped")
        #expect(model.intervals[0].note == "")
        #expect(model.splits.first?.pace == "2:20 /km")
    }
}

@Suite struct HistoryPageModelTests {
    @Test func rowsNewestFirstAndWeeklyTotals() {
        // 2026-04-20 is a Monday.
        let monday = UTCTime(year: 2026, month: 4, day: 20, secondsOfDayMilli: 6 * 3_600_000)
        let wednesday = UTCTime(year: 2026, month: 4, day: 22, secondsOfDayMilli: 18 * 3_600_000 + 5 * 60_000)
        let sunday = UTCTime(year: 2026, month: 4, day: 19, secondsOfDayMilli: 0)
        let model = HistoryPageModel(sessions: [
            .init(id: 3, date: wednesday, workout: "b", distanceMetres: 5000, durationSeconds: 1800, state: .closed(.completed)),
            .init(id: 2, date: monday, workout: "a", distanceMetres: 3000, durationSeconds: 1200, state: .closed(.stopped)),
            .init(id: 1, date: sunday, workout: "z", distanceMetres: 1000, durationSeconds: 400, state: .closed(.completed)),
            .init(id: 4, date: wednesday, workout: "open", distanceMetres: nil, durationSeconds: nil, state: .recording),
        ], units: .metric)
        #expect(model.rows.map(\.id) == [3, 2, 1])
        #expect(model.rows[0].title == "2026-04-22 18:05 · 5.00 km · 30:00")
        #expect(model.rows[0].subtitle == "b")
        #expect(model.weeks.map(\.title) == ["Week of 2026-04-20", "Week of 2026-04-13"])
        #expect(model.weeks[0].totals == "2 runs · 8.00 km · 50:00")
        #expect(model.weeks[1].totals == "1 run · 1.00 km · 6:40")
    }
}

@Suite struct AppOptionsTests {
    @Test func readsEveryOption() throws {
        let options = try AppOptions(arguments: ["--gps", "file:t.nmea", "--speed=20", "--workout", "galloway-3-1", "--voice", "off",
                                                 "--color-scheme", "dark", "--window-size", "360x720"])
        #expect(options.gps == "file:t.nmea")
        #expect(options.speed == 20)
        #expect(options.workout == "galloway-3-1")
        #expect(!options.voice)
        #expect(options.colorScheme == .dark)
        #expect(options.windowSize == .init(width: 360, height: 720))
        #expect(try AppOptions(arguments: []) == AppOptions())
    }

    @Test(arguments: [
        (["--speed", "0"], "runwalk-app: --speed must be a number from 0.01 to 10000, not 0"),
        (["--speed", "1e308"], "runwalk-app: --speed must be a number from 0.01 to 10000, not 1e308"),
        (["--voice", "loud"], "runwalk-app: --voice must be on or off, not loud"),
        (["--window-size", "360"], "runwalk-app: --window-size must be WIDTHxHEIGHT in pixels (100 to 10000), not 360"),
        (["--gps"], "runwalk-app: --gps needs a value"),
        (["--frobnicate"], "runwalk-app: unknown option --frobnicate (see runwalk-app --help)"),
    ])
    func badOptionsAreOneLine(arguments: [String], message: String) {
        #expect(throws: AppOptions.Problem(description: message)) { try AppOptions(arguments: arguments) }
    }
}
