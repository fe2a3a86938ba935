import Foundation
import RunWalkCore
import RunWalkReport
import Testing

@Suite("HistoryPage")
struct HistoryPageTests {
    static let hostile = "<script>alert('x')</script> & \"quotes\""

    /// Ten weeks of a runner's sessions: three a week, growing; a named and a noted session
    /// with hostile text; plan days due ahead.
    static func input() -> HistoryPageInput {
        let start = CalendarDay(year: 2026, month: 9, day: 14)  // a Monday
        var sessions: [HistoryPageInput.Session] = []
        var id: Int64 = 0
        for week in 0..<10 {
            for (n, offset) in [0, 2, 4].enumerated() where !(week == 6 && n == 1) {
                id += 1
                let day = start.adding(days: week * 7 + offset)
                let workout = n == 2 ? "5m warmup, 6x(3m run, 1m walk), 5m cooldown" : "5m warmup, 8x(90s run, 60s walk), 5m cooldown"
                let pace = 470.0 - Double(week) * 4 + Double(n) * 6
                let seconds = 1800.0 + Double(week * 60 + n * 300)
                sessions.append(.init(id: id, date: UTCTime(milliseconds: day.daysSinceEpoch * 86_400_000 + 6 * 3_600_000),
                                      workout: workout, name: id == 5 ? hostile : nil, note: id == 7 ? "felt <b>good</b>" : nil,
                                      distanceMetres: seconds / pace * 1000, durationSeconds: seconds, paceSecondsPerKm: pace,
                                      state: .closed(week == 9 && n == 2 ? .stopped : .completed),
                                      planDay: "Couch to 5K, week \(week + 1), day \(n + 1)"))
            }
        }
        sessions.reverse()
        let today = start.adding(days: 9 * 7 + 5)
        let calendar = TrainingCalendar(
            runs: sessions.map { .init(day: CalendarDay($0.date), distanceMetres: $0.distanceMetres ?? 0, durationSeconds: $0.durationSeconds ?? 0) },
            due: Set([7, 9, 11, 14, 16, 18].map { today.adding(days: $0 - 5) }))
        let records: [HistoryPageInput.Record] = [
            .init(name: "fastest 1 km", value: "6:41", sessionID: 27, date: sessions[0].date),
            .init(name: "longest run", value: "5.52 km", detail: "in 41:00", sessionID: 28, date: sessions[1].date),
            .init(name: "longest run interval", value: "3:00", detail: "0.46 km without a walk", sessionID: 28, date: sessions[1].date),
        ]
        return HistoryPageInput(sessions: sessions, records: records, calendar: calendar, today: today,
                                planLine: "Couch to 5K: 27 of 27 days done. \(hostile)")
    }

    @Test("self-contained: no script, no external resource; links only to session-ID.html beside it")
    func selfContained() throws {
        let html = HistoryPage.render(Self.input())
        Tool.keep(Data(html.utf8), as: "history.html")
        for forbidden in ["<script", "src=", "url(", "@import", "http://", "https://", "<link", "<iframe"] {
            #expect(!html.contains(forbidden), "found \(forbidden)")
        }
        #expect(!html.replacingOccurrences(of: "</", with: "").contains("//"), "no protocol-relative or absolute URL")
        let hrefs = html.components(separatedBy: "href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(!hrefs.isEmpty)
        for href in hrefs { #expect(href.wholeMatch(of: /session-\d+\.html/) != nil, "link \(href)") }
        #expect(hrefs.contains("session-5.html") && hrefs.contains("session-28.html"))
        #expect(html.hasPrefix("<!DOCTYPE html>"))
    }

    @Test("every part is there: tiles, heat map with due days, weekly bars, pace trends, records, sessions")
    func parts() throws {
        let input = Self.input()
        let html = HistoryPage.render(input)
        for part in ["class=\"tiles\"", "class=\"heatmap\"", "hm-due", "hm-today", "bar-rect distance", "bar-rect time",
                     "chart-trend", "class=\"records\"", "class=\"sessions\"", "Training history"] {
            #expect(html.contains(part), "missing \(part)")
        }
        #expect(html.components(separatedBy: "<tr><td><a href=").count - 1 == input.sessions.count)
        #expect(html.components(separatedBy: "class=\"pt\"").count - 1 == input.sessions.count, "every session is a point of its workout's trend")
        #expect(html.contains("<span class=\"value\">29</span>"), "sessions tile")
        #expect(html.contains("<rect class=\"hm hm4\""))
        #expect(html.components(separatedBy: "<rect class=\"hm hm-due").count - 1 == 6)
    }

    @Test("user-given text is escaped everywhere")
    func escaping() {
        let html = HistoryPage.render(Self.input())
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>good"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quotes&quot;"))
        #expect(html.contains("felt &lt;b&gt;good&lt;/b&gt;"))
    }

    @Test("imperial units: miles and minutes per mile")
    func imperial() {
        var input = Self.input()
        input.units = .imperial
        let html = HistoryPage.render(input)
        #expect(html.contains("mi per week"))
        #expect(html.contains("min/mi · faster is higher"))
        #expect(html.contains("<small>mi</small>"))
        #expect(!html.contains("6.59 km") && html.contains(" mi</td><td class=\"opt\">49:00"), "miles in the sessions table")
    }

    @Test("with no sessions the page still renders and says so")
    func empty() {
        let html = HistoryPage.render(HistoryPageInput(sessions: [], records: [], calendar: TrainingCalendar(runs: []),
                                                       today: CalendarDay(year: 2026, month: 11, day: 25)))
        #expect(html.contains("No sessions recorded yet"))
        #expect(html.contains("No records yet."))
    }

    @Test("headless Chromium renders it at phone and desktop width", .enabled(if: HTMLReportTests.chromium != nil && Tool.python != nil,
          "needs chromium and python3 (scripts/test installs them)"), arguments: [360, 1280])
    func screenshot(width: Int) async throws {
        let folder = try Tool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("history.html")
        try HistoryPage.render(Self.input()).write(to: page, atomically: true, encoding: .utf8)
        let png = folder.appendingPathComponent("history.png")
        let result = try await Tool.run(try #require(HTMLReportTests.chromium), [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1", "--no-first-run",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)", "--window-size=\(width),2400",
            "--screenshot=\(png.path)", page.absoluteString,
        ], timeoutSeconds: 90)
        try #require(FileManager.default.fileExists(atPath: png.path), "chromium wrote no PNG: \(result.stderr.suffix(600))")
        if let data = FileManager.default.contents(atPath: png.path) { Tool.keep(data, as: "history-\(width).png") }
        let stats = try await PNGStats.measure(png, colours: ["accent": [232, 89, 12], "time": [28, 126, 214], "due": [16, 152, 173]])
        #expect(stats.width == width)
        #expect(stats.distinct > 100, "only \(stats.distinct) colours: blank page?")
        #expect(stats.counts["accent", default: 0] > 1500, "distance bars and heat map: \(stats.counts)")
        #expect(stats.counts["time", default: 0] > 1500, "time bars: \(stats.counts)")
        #expect(stats.counts["due", default: 0] > 60, "plan days due outlined: \(stats.counts)")
    }
}
