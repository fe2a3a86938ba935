import RunWalkCore

/// Renders the runner's history as one self-contained HTML page: totals, the calendar heat
/// map (plan days due outlined), weekly distance and time, the pace trend over repeated
/// workouts, records and every session, linked to its report (`session-ID.html` beside the
/// page). Inline CSS and SVG only; no script, no network; every user-given text escaped.
public enum HistoryPage {
    /// The page.
    public static func render(_ input: HistoryPageInput) -> String {
        let runs = input.sessions.filter { !$0.state.isRecording }
        let style = UnitStyle(input.units)
        var body = header(input, runs: runs)
        body += tiles(input, runs: runs, style: style)

        // The map spans the runs and the weeks ahead with plan days due, at least half a year, at most a year.
        // Four weeks ahead of today show the plan days coming.
        let lastRun = input.calendar.byDay.keys.max()
        let end = max(input.today.adding(days: 28), lastRun ?? input.today)
        let firstRun = input.calendar.byDay.keys.min() ?? input.today
        let endMonday = end.monday
        var weeks = max(26, endMonday.days(since: firstRun.monday) / 7 + 1)
        weeks = min(weeks, 53)
        let firstMonday = endMonday.adding(days: -7 * (weeks - 1))
        body += "<section><h2>Calendar</h2>\(HistoryCharts.heatMap(input.calendar, from: firstMonday, weeks: weeks, today: input.today, style: style))</section>"

        // Weekly charts: the last 12 weeks up to the latest run or today.
        let chartEnd = max(input.today, lastRun ?? input.today).monday
        let mondays = (0..<12).reversed().map { chartEnd.adding(days: -7 * $0) }
        let totals = mondays.map { input.calendar.totals(from: $0, days: 7) }
        body += "<div class=\"two\"><section><h2>Weekly distance</h2>"
            + HistoryCharts.weeklyBars(caption: "Distance", unit: "\(style.distanceUnit) per week (Monday to Sunday)", cssClass: "distance",
                                       mondays: mondays, values: totals.map { $0.distanceMetres / style.metresPerDistanceUnit }, label: { Text.compact($0, 1) })
            + "</section><section><h2>Weekly time</h2>"
            + HistoryCharts.weeklyBars(caption: "Time", unit: "minutes per week", cssClass: "time",
                                       mondays: mondays, values: totals.map { $0.durationSeconds / 60 }, label: { Text.fixed($0, 0) })
            + "</section></div>"

        body += paceTrends(runs, style: style)
        body += records(input.records)
        body += sessionsTable(input.sessions, style: style)
        body += "<footer>RunWalk history · \(input.sessions.count) session\(input.sessions.count == 1 ? "" : "s") · dates in UTC · "
            + "a session's link opens its report when <code>session-ID.html</code> sits beside this page: "
            + "<code>runwalk history --format html -o FILE --reports</code> writes them all, "
            + "<code>runwalk report ID --format html -o session-ID.html</code> one.</footer>"

        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<meta name=\"color-scheme\" content=\"light dark\">"
            + "<title>Training history · RunWalk</title><style>\(HTMLStyle.css)\(HistoryStyle.css)</style></head>\n"
            + "<body><main class=\"history\">\(body)</main></body></html>\n"
    }

    static func header(_ input: HistoryPageInput, runs: [HistoryPageInput.Session]) -> String {
        var meta = "No sessions recorded yet"
        if let first = runs.map(\.date).min(), let last = runs.map(\.date).max() {
            meta = "\(CalendarDay(first).description) to \(CalendarDay(last).description)"
        }
        var html = "<header><p class=\"eyebrow\">RunWalk · history</p><h1>Training history</h1><p class=\"meta\">\(meta)</p>"
        if let plan = input.planLine { html += "<p class=\"plan-line\">\(Text.escaped(plan))</p>" }
        return html + "</header>"
    }

    static func tiles(_ input: HistoryPageInput, runs: [HistoryPageInput.Session], style: UnitStyle) -> String {
        func tile(_ label: String, _ value: String, _ unit: String = "", primary: Bool = false) -> String {
            "<div class=\"tile\(primary ? " primary" : "")\"><span class=\"label\">\(label)</span><span class=\"value\">\(value)"
                + (unit.isEmpty ? "" : " <small>\(unit)</small>") + "</span></div>"
        }
        let distance = runs.compactMap(\.distanceMetres).reduce(0, +)
        let time = runs.compactMap(\.durationSeconds).reduce(0, +)
        let streak = input.calendar.weekStreak(today: input.today)
        return "<section class=\"tiles\">" + tile("Distance", Text.fixed(distance / style.metresPerDistanceUnit, 1), style.distanceUnit, primary: true)
            + tile("Time", TimeText.clock(time)) + tile("Sessions", String(runs.count))
            + tile("Week streak", String(streak.current), "longest \(streak.longest)") + "</section>"
    }

    /// One chart per workout run at least twice (the three most run), oldest session first.
    static func paceTrends(_ runs: [HistoryPageInput.Session], style: UnitStyle) -> String {
        var groups: [String: [HistoryPageInput.Session]] = [:]
        for run in runs where run.paceSecondsPerKm != nil && (run.distanceMetres ?? 0) > 100 { groups[run.workout, default: []].append(run) }
        let chosen = groups.filter { $0.value.count >= 2 }
            .sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.prefix(3)
        guard !chosen.isEmpty else {
            return "<section><h2>Pace trend</h2><p class=\"empty\">A workout run twice or more shows its pace trend here.</p></section>"
        }
        var html = "<section><h2>Pace trend <span class=\"chart-unit\">same workout over time</span></h2>"
        for (workout, sessions) in chosen {
            let ordered = sessions.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
            html += HistoryCharts.paceTrend(caption: "\(workout) (\(ordered.count) sessions)", unit: style.paceUnit,
                                            points: ordered.compactMap { s in s.paceSecondsPerKm.map { (CalendarDay(s.date), style.paceValue($0), s.id) } })
        }
        return html + "</section>"
    }

    static func link(_ id: Int64) -> String {
        "<a href=\"\(HistoryPageInput.reportFileName(id))\">#\(id)</a>"
    }

    static func records(_ records: [HistoryPageInput.Record]) -> String {
        guard !records.isEmpty else { return "<section><h2>Records</h2><p class=\"empty\">No records yet.</p></section>" }
        var html = "<section><h2>Records</h2><div class=\"table-wrap\"><table class=\"records\"><thead><tr>"
            + "<th class=\"text\">record</th><th>value</th><th class=\"text\">session</th></tr></thead><tbody>"
        for record in records {
            html += "<tr><td class=\"text\">\(Text.escaped(record.name))</td><td><strong>\(Text.escaped(record.value))</strong>"
                + (record.detail.isEmpty ? "" : "<span class=\"s-sub\">\(Text.escaped(record.detail))</span>")
                + "</td><td class=\"text\">\(link(record.sessionID)) <span class=\"opt\">\(CalendarDay(record.date).description)</span></td></tr>"
        }
        return html + "</tbody></table></div></section>"
    }

    static func sessionsTable(_ sessions: [HistoryPageInput.Session], style: UnitStyle) -> String {
        guard !sessions.isEmpty else { return "" }
        var html = "<section><h2>Sessions</h2><div class=\"table-wrap\"><table class=\"sessions\"><thead><tr><th>#</th>"
            + "<th class=\"text\">date</th><th class=\"text\">session</th><th>distance</th><th class=\"opt\">time</th><th class=\"opt\">pace</th>"
            + "<th class=\"text opt\">result</th></tr></thead><tbody>"
        for s in sessions {
            let (title, sub) = s.name.map { ($0, s.workout) } ?? (s.workout, nil)
            var cell = "<span class=\"s-title\">\(Text.escaped(title))</span>"
            if let sub { cell += "<span class=\"s-sub\">\(Text.escaped(sub))</span>" }
            if let plan = s.planDay { cell += "<span class=\"s-sub plan\">\(Text.escaped(plan))</span>" }
            if let note = s.note { cell += "<span class=\"s-note\">\(Text.escaped(note))</span>" }
            let iso = s.date.iso8601(fractionDigits: 0)
            html += "<tr><td>\(link(s.id))</td><td class=\"text\">\(iso.prefix(10)) <span class=\"diff opt\">\(iso.dropFirst(11).prefix(5))</span></td>"
                + "<td class=\"text wrap\">\(cell)</td>"
                + "<td>\(s.distanceMetres.map { style.distance($0) } ?? "–")</td>"
                + "<td class=\"opt\">\(s.durationSeconds.map { TimeText.clock($0) } ?? "–")</td>"
                + "<td class=\"opt\">\(style.pace(s.paceSecondsPerKm))</td>"
                + "<td class=\"text opt\"><span class=\"flag state-\(Text.escaped(s.state.rawValue))\">\(Text.escaped(s.state.rawValue))</span></td></tr>"
        }
        return html + "</tbody></table></div></section>"
    }
}

/// The history page's additions to the report's style sheet.
enum HistoryStyle {
    static let css = """
    .plan-line{margin:.4em 0 0;font-weight:600}
    .heatmap-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch}.heatmap{display:block;width:100%;height:auto}
    .hm{fill:var(--grid)}.hm1,.chip.hm1{fill:rgba(232,89,12,.35);background:rgba(232,89,12,.35)}
    .hm2,.chip.hm2{fill:rgba(232,89,12,.55);background:rgba(232,89,12,.55)}.hm3,.chip.hm3{fill:rgba(232,89,12,.78);background:rgba(232,89,12,.78)}
    .hm4,.chip.hm4{fill:var(--accent);background:var(--accent)}.hm-future{opacity:.45}
    .hm-due,.chip.hm-due{fill:var(--card);stroke:var(--walk);stroke-width:1.6;stroke-dasharray:2 1.5;background:var(--card);border:1.5px dashed var(--walk)}
    .hm-today{stroke:var(--text);stroke-width:1.6}.chip.hm-today-key{background:var(--grid);border:1.5px solid var(--text)}
    .hm-label{font:10px system-ui,sans-serif;fill:var(--muted)}.x-axis span{white-space:nowrap}
    .bar-rect.distance{fill:var(--accent)}.bar-rect.time{fill:var(--speed)}
    .plot.bars,.plot.trend{height:170px}
    .bar-value{position:absolute;transform:translate(-50%,-2px) translateY(-100%);font-size:.68rem;color:var(--muted);white-space:nowrap}
    .bar-axis span:first-child{transform:translateX(-50%)}
    .pt{position:absolute;width:9px;height:9px;margin:-4.5px 0 0 -4.5px;border-radius:50%;background:var(--card);border:2.5px solid var(--pace)}
    .chart-trend .x-axis span:first-child{transform:translateX(-50%)}
    td.wrap{white-space:normal;min-width:12em;max-width:28em}
    .s-title{display:block;font-weight:600;overflow-wrap:anywhere}.s-sub{display:block;color:var(--muted);font-size:.8rem;overflow-wrap:anywhere}
    .s-sub.plan{color:var(--walk)}.s-note{display:block;font-size:.8rem;font-style:italic;overflow-wrap:anywhere}
    a{color:var(--accent);font-weight:600}
    code{font-size:.85em}
    .state-completed{background:rgba(47,158,68,.18);color:var(--best)}
    @media (max-width:520px){.bar-value{display:none}td.wrap{min-width:8em}.sessions .opt,.records .opt{display:none}.records td.text:first-child{white-space:normal}}
    """
}
