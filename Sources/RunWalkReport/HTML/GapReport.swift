import RunWalkCore

/// The GPS gaps of a session in the HTML report: a table that names each one (when, how long,
/// why, how the distance across it was counted), and the labels the charts and the map put on it.
enum GapReport {
    /// The gaps' time spans for the charts, labelled `GPS gap 0:42`; an open gap runs to `durationSeconds`.
    static func chartGaps(_ accounts: [GPSGapAccount], durationSeconds: Double) -> [TimeChart.Gap] {
        accounts.map { gap in
            TimeChart.Gap(startSeconds: gap.startSeconds, endSeconds: gap.endSeconds ?? durationSeconds,
                          label: "GPS gap" + (gap.durationSeconds.map { " " + TimeText.clock($0) } ?? ""))
        }
    }

    /// The section with one row per gap; nil when there were none. On a phone each gap is stacked
    /// into a small card (class `stack`, the cells' `data-label`s naming their columns).
    static func section(_ accounts: [GPSGapAccount], style: UnitStyle) -> String? {
        guard !accounts.isEmpty else { return nil }
        var html = "<section class=\"gaps\"><h2>GPS gaps <span class=\"chart-unit\">no positions; how the distance across each was counted</span></h2>"
        html += "<div class=\"table-wrap\"><table class=\"gap-table stack\"><thead><tr><th scope=\"col\">From</th><th scope=\"col\">To</th>"
        html += "<th scope=\"col\">How long</th><th scope=\"col\" class=\"text\">Why</th><th scope=\"col\" class=\"text\">Distance across it</th></tr></thead><tbody>"
        for gap in accounts {
            html += "<tr class=\"gap-row\" data-start-s=\"\(Text.fixed(gap.startSeconds, 1))\"><td data-label=\"From\">\(TimeText.clock(gap.startSeconds))</td>"
            html += "<td data-label=\"To\">\(gap.endSeconds.map { TimeText.clock($0) } ?? "end")</td>"
            html += "<td data-label=\"How long\">\(gap.durationSeconds.map { TimeText.clock($0) } ?? "–")</td>"
            html += "<td class=\"text\" data-label=\"Why\">\(Text.escaped(gap.reasonText))</td>"
            html += "<td class=\"text\" data-label=\"Distance across it\">\(Text.escaped(gap.estimateText(style.units)))</td></tr>"
        }
        return html + "</tbody></table></div></section>"
    }
}
