import RunWalkCore

/// The per-interval (planned vs actual) and splits tables of the HTML report.
enum ReportTables {
    /// One row per phase: what was planned, what was run, and the difference.
    ///
    /// With target or heart-rate columns the table is too wide for a phone: there each row is then
    /// stacked (class `stack`) into a small card whose cells carry their column's name
    /// (`data-label`), so nothing needs scrolling sideways at 360 px.
    static func intervals(_ summary: Summary, style: UnitStyle) -> String {
        var runNumber = 0, walkNumber = 0
        // Target columns only when some phase had a band (issue 33).
        let targets = summary.phases.contains { $0.target != nil }
        let wide = targets || summary.heartRateAverage != nil
        var html = "<div class=\"table-wrap\"><table class=\"intervals\(wide ? " wide stack" : "")\"><thead><tr>"
        html += "<th scope=\"col\">#</th><th scope=\"col\" class=\"text\">Phase</th><th scope=\"col\">Plan</th>"
        html += "<th scope=\"col\">Time</th><th scope=\"col\">Dist \(style.units == .metric ? "m" : "mi")</th><th scope=\"col\">Pace</th>"
        let withHeartRate = summary.heartRateAverage != nil
        html += "<th scope=\"col\">vs plan</th>"
        if targets { html += "<th scope=\"col\">Target</th><th scope=\"col\">In</th><th scope=\"col\">Below</th><th scope=\"col\">Above</th>" }
        if withHeartRate { html += "<th scope=\"col\">Avg HR</th><th scope=\"col\">Max HR</th>" }
        html += "</tr></thead><tbody>"
        for phase in summary.phases {
            var name = phase.kind.label
            if phase.kind == .run { runNumber += 1; name += " \(runNumber)" }
            if phase.kind == .walk { walkNumber += 1; name += " \(walkNumber)" }
            let planned: String, difference: String
            if let until = phase.planned.until {
                planned = Text.escaped(until)
                difference = ""
            } else if let seconds = phase.planned.durationSeconds {
                planned = TimeText.clock(seconds)
                difference = signed(phase.durationSeconds - seconds, format: { TimeText.clock(abs($0)) }, unit: "")
            } else if let metres = phase.planned.distanceMetres {
                planned = style.shortDistance(metres)
                difference = signed(phase.distanceMetres - metres, format: { Text.fixed(abs($0), 0) }, unit: " m")
            } else {
                planned = "–"
                difference = ""
            }
            var note = ""
            if phase.endReason != .completed { note = " <span class=\"flag\">\(phase.endReason.rawValue)</span>" }
            html += "<tr class=\"row-\(phase.kind.rawValue)\"><td>\(phase.index + 1)</td>"
            html += "<td class=\"text\"><i class=\"chip chip-\(phase.kind.rawValue)\"></i>\(name)\(note)</td>"
            html += "<td data-label=\"Plan\">\(planned)</td><td data-label=\"Time\">\(TimeText.clock(phase.durationSeconds))</td>"
            let distance = style.units == .metric ? Text.fixed(phase.distanceMetres, 0) : Text.fixed(phase.distanceMetres / 1609.344, 2)
            html += "<td data-label=\"Dist \(style.units == .metric ? "m" : "mi")\">\(distance)</td>"
            html += "<td data-label=\"Pace\">\(style.pace(phase.averagePaceSecondsPerKm))</td>"
            html += "<td class=\"diff\" data-label=\"vs plan\">\(difference)</td>"
            if targets { html += targetCells(phase) }
            if withHeartRate {
                html += "<td data-label=\"Avg HR\">\(phase.heartRateAverage.map { Text.fixed($0, 0) } ?? "–")</td>"
                html += "<td data-label=\"Max HR\">\(phase.heartRateMax.map(String.init) ?? "–")</td>"
            }
            html += "</tr>"
        }
        html += "</tbody></table></div>"
        return html
    }

    /// One row per whole kilometre (or mile), with a bar for its pace.
    static func splits(_ summary: Summary, style: UnitStyle) -> String {
        guard !summary.splits.isEmpty else { return "<p class=\"empty\">No complete \(style.distanceUnit) yet.</p>" }
        let paces = summary.splits.map(\.paceSecondsPerKm)
        let fastest = paces.min() ?? 0, slowest = paces.max() ?? 1
        var html = "<div class=\"table-wrap\"><table class=\"splits\"><thead><tr>"
        html += "<th scope=\"col\">\(style.distanceUnit)</th><th scope=\"col\">Time (pace \(style.paceUnit))</th>"
        html += "<th scope=\"col\">Elapsed</th><th scope=\"col\" class=\"bar-col\"><span class=\"sr\">pace bar</span></th></tr></thead><tbody>"
        for split in summary.splits {
            // Faster splits get longer bars (40–100 %).
            let f = slowest > fastest ? (slowest - split.paceSecondsPerKm) / (slowest - fastest) : 1
            let best = split.paceSecondsPerKm == fastest && summary.splits.count > 1
            // A whole unit's split time is its pace per unit.
            html += "<tr\(best ? " class=\"best\"" : "")><td>\(split.index)</td>"
            html += "<td>\(best ? "<span class=\"flag best-flag\">fastest</span> " : "")\(TimeText.clock(split.splitSeconds))</td>"
            html += "<td>\(TimeText.clock(split.elapsedSeconds))</td>"
            html += "<td class=\"bar-col\"><span class=\"bar\" style=\"width:\(Text.fixed(40 + 60 * f, 1))%\"></span></td></tr>"
        }
        html += "</tbody></table></div>"
        return html
    }

    /// The band and the time in, below and above it; empty cells for a phase without one.
    static func targetCells(_ phase: Summary.Phase) -> String {
        // A phase without a band shows a dash in the table; stacked on a phone, nothing.
        guard let target = phase.target else { return "<td class=\"absent\">–</td><td></td><td></td><td></td>" }
        let times = zip(["In", "Below", "Above"], [phase.timeInTargetSeconds, phase.timeBelowSeconds, phase.timeAboveSeconds])
        return "<td data-label=\"Target\">\(Text.escaped(target.text))</td>"
            + times.map { "<td data-label=\"\($0)\">\($1.map { TimeText.clock($0) } ?? "–")</td>" }.joined()
    }

    private static func signed(_ value: Double, format: (Double) -> String, unit: String) -> String {
        let text = format(value)
        if text == format(0) { return "<span class=\"even\">on plan</span>" }
        return (value > 0 ? "+" : "−") + text + unit
    }
}
