import ArgumentParser
import FoundationEssentials
import RunWalkCore
import RunWalkIO
import RunWalkStore

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List past sessions, weekly totals and records.")

    @Option(name: .long, help: "Also show totals for the last N weeks (Monday to Sunday, UTC).")
    var weeks: Int?

    @Flag(name: .long, help: "Also show records: fastest 1 km and 5 km, longest run, longest run interval.")
    var records = false

    @Flag(name: .long, help: "Show a month as a calendar (this month, or the MONTH given) with run days, plan days due, totals and streaks.")
    var calendar = false

    @Argument(help: "With --calendar: the month, YYYY-MM.")
    var month: String?

    @Option(name: .long, help: "text, or html: a self-contained page (calendar heat map, weekly charts, pace trend, records) for -o.")
    var format: HistoryFormat = .text

    @Option(name: .shortAndLong, help: "Write to this file (with --format html).")
    var output: String?

    @Flag(name: .long, help: "With --format html -o FILE: also write each session's report (session-ID.html) beside the page, so its links open.")
    var reports = false

    func validate() throws {
        // A bound, so that the weeks asked for are counted, not allocated without end (20 years).
        if let weeks, !(1...1040).contains(weeks) { throw ValidationError("--weeks must be from 1 to 1040, not \(weeks)") }
        if month != nil, !calendar { throw ValidationError("a month is given only with --calendar") }
        if reports, format != .html || output == nil { throw ValidationError("--reports needs --format html and -o FILE") }
    }

    func run() throws {
        if format == .html { return try HistoryPageOutput.write(to: output, reports: reports) }
        if calendar { return try showCalendar() }
        StoreAccess.warnAboutFallbacks()
        let store = try StoreAccess.openExisting()
        let history = History(store: store)
        var lines: [String] = []
        do {
            let names = try history.store.sessionLabels().compactMapValues(\.name)
            lines += HistoryText.sessions(try history.sessions(), names: names)
            if let weeks {
                let now = UTCTime(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
                lines += [""] + HistoryText.weeks(try history.weeks(count: weeks, now: now))
            }
            if records { lines += [""] + HistoryText.records(try history.records()) }
        } catch let error as StoreError {
            throw StoreAccess.failure(error, store: store)
        }
        Terminal.out(lines.joined(separator: "\n"))
    }
}

/// The formats `history` writes.
enum HistoryFormat: String, ExpressibleByArgument, CaseIterable { case text, html }

extension HistoryCommand {
    /// `--calendar [YYYY-MM]`.
    func showCalendar() throws {
        let today = try Today.day()
        var year = today.civil.year, monthNumber = today.civil.month
        if let month {
            guard let parsed = HistoryCalendarText.parseMonth(month) else {
                throw UserFacingError.input("--calendar \(month): expected a month as YYYY-MM")
            }
            (year, monthNumber) = parsed
        }
        let store = try StoreAccess.openExisting()
        let calendar = try HistoryData.calendar(store: store, today: today)
        let units = try WorkoutStore.call { try SettingsFile().load() }.units ?? .metric
        Terminal.out(HistoryCalendarText.render(calendar, year: year, month: monthNumber, today: today, units: units).joined(separator: "\n"))
    }
}

/// History as terminal tables (metric).
enum HistoryText {
    /// The sessions table; a named session shows its name in place of its workout.
    static func sessions(_ sessions: [SessionInfo], names: [Int64: String] = [:]) -> [String] {
        guard !sessions.isEmpty else { return ["No sessions recorded yet."] }
        // The average heart rate only when some session has one (the table stays as it was otherwise).
        let withHeartRate = sessions.contains { $0.averageHeartRateBPM != nil }
        let widths = withHeartRate ? [4, -16, -34, 9, 8, 9, 4, -11] : [4, -16, -34, 9, 8, 9, -11]
        var titles = ["#", "date", "workout", "distance", "time", "pace", "result"]
        if withHeartRate { titles.insert("hr", at: 6) }
        var lines = [row(titles, widths)]
        for s in sessions {
            var cells = [
                String(s.id), date(s.date, withTime: true), shorten(names[s.id] ?? s.workout, 34),
                s.distanceMetres.map { SummaryText.distance($0, .metric) } ?? "-",
                s.durationSeconds.map { TimeText.clock($0) } ?? "-",
                s.averagePaceSecondsPerKm.map { TimeText.clock($0) } ?? "-",
                s.state.rawValue,
            ]
            if withHeartRate { cells.insert(s.averageHeartRateBPM.map { String(Int($0.rounded())) } ?? "-", at: 6) }
            lines.append(row(cells, widths))
        }
        return lines
    }

    static func weeks(_ weeks: [History.Week]) -> [String] {
        var lines = ["Weekly totals (weeks start on Monday, UTC)",
                     row(["week of", "sessions", "distance", "time"], [-10, 9, 10, 9])]
        for week in weeks {
            lines.append(row([date(UTCTime(milliseconds: week.mondayDay * 86_400_000), withTime: false), String(week.sessions),
                              SummaryText.distance(week.distanceMetres, .metric), TimeText.clock(week.durationSeconds)],
                             [-10, 9, 10, 9]))
        }
        return lines
    }

    static func records(_ records: History.Records) -> [String] {
        func line(_ name: String, _ record: History.Record?, value: (History.Record) -> String, detail: (History.Record) -> String) -> String {
            guard let record else { return row([name, "-"], [-21, 9]) }
            return row([name, value(record), "session \(record.sessionID), \(date(record.date, withTime: false))\(detail(record))"], [-21, 9, -1])
        }
        let time: (History.Record) -> String = { $0.seconds.map { TimeText.clock($0) } ?? "-" }
        return [
            "Records",
            line("fastest 1 km", records.fastest1km, value: time, detail: { _ in "" }),
            line("fastest 5 km", records.fastest5km, value: time, detail: { _ in "" }),
            line("longest run", records.longestRun, value: { SummaryText.distance($0.metres ?? 0, .metric) },
                 detail: { r in r.seconds.map { " (\(TimeText.clock($0)))" } ?? "" }),
            line("longest run interval", records.longestRunInterval, value: time,
                 detail: { r in r.metres.map { " (\(SummaryText.distance($0, .metric)))" } ?? "" }),
        ]
    }

    /// `2026-04-12 06:30` or `2026-04-12`.
    static func date(_ time: UTCTime, withTime: Bool) -> String {
        let iso = time.iso8601(fractionDigits: 0)
        return withTime ? String(iso.prefix(16)).replacing("T", with: " ") : String(iso.prefix(10))
    }

    static func shorten(_ text: String, _ width: Int) -> String {
        guard text.count > width else { return text }
        var cut = String(text.prefix(width - 1))
        while cut.last == " " { cut.removeLast() }
        return cut + "…"
    }

    /// Cells padded to `widths`: positive right-aligns, negative left-aligns.
    static func row(_ cells: [String], _ widths: [Int]) -> String {
        var line = zip(cells, widths).map { cell, width in
            let pad = String(repeating: " ", count: max(0, abs(width) - cell.count))
            return width < 0 ? cell + pad : pad + cell
        }.joined(separator: "  ")
        while line.last?.isWhitespace == true { line.removeLast() }
        return line
    }
}
