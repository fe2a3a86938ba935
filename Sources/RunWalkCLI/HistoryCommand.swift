import ArgumentParser
import Foundation
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

    func validate() throws {
        if let weeks, weeks < 1 { throw ValidationError("--weeks must be 1 or more, not \(weeks)") }
    }

    func run() throws {
        let store = try StoreAccess.openExisting()
        let history = History(store: store)
        var lines: [String] = []
        do {
            lines += HistoryText.sessions(try history.sessions())
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

/// History as terminal tables (metric).
enum HistoryText {
    static func sessions(_ sessions: [SessionInfo]) -> [String] {
        guard !sessions.isEmpty else { return ["No sessions recorded yet."] }
        var lines = [row(["#", "date", "workout", "distance", "time", "pace", "result"], [4, -16, -34, 9, 8, 9, -11])]
        for s in sessions {
            lines.append(row([
                String(s.id), date(s.date, withTime: true), shorten(s.workout, 34),
                s.distanceMetres.map { SummaryText.distance($0, .metric) } ?? "-",
                s.durationSeconds.map(SummaryText.clock) ?? "-",
                s.averagePaceSecondsPerKm.map { SummaryText.clock($0) } ?? "-",
                s.state,
            ], [4, -16, -34, 9, 8, 9, -11]))
        }
        return lines
    }

    static func weeks(_ weeks: [History.Week]) -> [String] {
        var lines = ["Weekly totals (weeks start on Monday, UTC)",
                     row(["week of", "sessions", "distance", "time"], [-10, 9, 10, 9])]
        for week in weeks {
            lines.append(row([date(UTCTime(milliseconds: week.mondayDay * 86_400_000), withTime: false), String(week.sessions),
                              SummaryText.distance(week.distanceMetres, .metric), SummaryText.clock(week.durationSeconds)],
                             [-10, 9, 10, 9]))
        }
        return lines
    }

    static func records(_ records: History.Records) -> [String] {
        func line(_ name: String, _ record: History.Record?, value: (History.Record) -> String, detail: (History.Record) -> String) -> String {
            guard let record else { return row([name, "-"], [-21, 9]) }
            return row([name, value(record), "session \(record.sessionID), \(date(record.date, withTime: false))\(detail(record))"], [-21, 9, -1])
        }
        let time: (History.Record) -> String = { $0.seconds.map(SummaryText.clock) ?? "-" }
        return [
            "Records",
            line("fastest 1 km", records.fastest1km, value: time, detail: { _ in "" }),
            line("fastest 5 km", records.fastest5km, value: time, detail: { _ in "" }),
            line("longest run", records.longestRun, value: { SummaryText.distance($0.metres ?? 0, .metric) },
                 detail: { r in r.seconds.map { " (\(SummaryText.clock($0)))" } ?? "" }),
            line("longest run interval", records.longestRunInterval, value: time,
                 detail: { r in r.metres.map { " (\(SummaryText.distance($0, .metric)))" } ?? "" }),
        ]
    }

    /// `2026-04-12 06:30` or `2026-04-12`.
    static func date(_ time: UTCTime, withTime: Bool) -> String {
        let iso = time.iso8601(fractionDigits: 0)
        return withTime ? String(iso.prefix(16)).replacingOccurrences(of: "T", with: " ") : String(iso.prefix(10))
    }

    static func shorten(_ text: String, _ width: Int) -> String {
        guard text.count > width else { return text }
        var cut = String(text.prefix(width - 1))
        while cut.last == " " { cut.removeLast() }
        return cut + "…"
    }

    /// Cells padded to `widths`: positive right-aligns, negative left-aligns.
    static func row(_ cells: [String], _ widths: [Int]) -> String {
        zip(cells, widths).map { cell, width in
            let pad = String(repeating: " ", count: max(0, abs(width) - cell.count))
            return width < 0 ? cell + pad : pad + cell
        }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
}
