import RunWalkCore

/// The history page's pictures: the calendar heat map, weekly bars and a pace trend. Plots
/// are SVG; their labels are HTML laid over them (as in the session report), so text stays
/// readable at any width.
enum HistoryCharts {
    static let monthShort = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `12 Apr`.
    static func shortDate(_ day: CalendarDay) -> String {
        let (_, m, d) = day.civil
        return "\(d) \(monthShort[m - 1])"
    }

    /// A GitHub-style year grid: a column per week (Monday on top), darker for longer runs,
    /// plan days due outlined, today ringed.
    static func heatMap(_ calendar: TrainingCalendar, from firstMonday: CalendarDay, weeks: Int, today: CalendarDay,
                        style: UnitStyle) -> String {
        let step = 13.0, cell = 11.0, left = 30.0, top = 16.0
        let width = left + Double(weeks) * step, height = top + 7 * step
        let distances = calendar.byDay.values.map(\.distanceMetres).sorted()
        func level(_ metres: Double) -> Int {
            guard let i = distances.firstIndex(where: { $0 >= metres }), distances.count > 1 else { return 3 }
            return 1 + min(3, i * 4 / distances.count)
        }
        var svg = "<svg class=\"heatmap\" viewBox=\"0 0 \(Text.fixed(width, 0)) \(Text.fixed(height, 0))\" "
            + "style=\"min-width:\(Text.fixed(width * 0.8, 0))px;max-width:\(Text.fixed(width * 1.8, 0))px\" role=\"img\" "
            + "aria-label=\"Runs by day, \(weeks) weeks\">"
        for (row, name) in ["Mon", "", "Wed", "", "Fri", "", "Sun"].enumerated() where !name.isEmpty {
            svg += "<text class=\"hm-label\" x=\"0\" y=\"\(Text.fixed(top + Double(row) * step + 9, 1))\">\(name)</text>"
        }
        var lastMonth = -1
        for week in 0..<weeks {
            let monday = firstMonday.adding(days: week * 7)
            let x = left + Double(week) * step
            // A month's name over the first week that starts in it.
            let month = monday.adding(days: 6).civil.month
            if month != lastMonth, week < weeks - 1 || lastMonth == -1 {
                if lastMonth != -1 || monday.adding(days: 6).civil.day <= 7 {
                    svg += "<text class=\"hm-label\" x=\"\(Text.fixed(x, 1))\" y=\"10\">\(monthShort[month - 1])</text>"
                }
                lastMonth = month
            }
            for row in 0..<7 {
                let day = monday.adding(days: row)
                let y = top + Double(row) * step
                var cls = "hm"
                var title = day.description
                if let totals = calendar.byDay[day] {
                    cls += " hm\(level(totals.distanceMetres))"
                    title += ": \(totals.sessions) run\(totals.sessions == 1 ? "" : "s"), \(style.distance(totals.distanceMetres))"
                } else if calendar.due.contains(day) {
                    cls += " hm-due"
                    title += ": plan day due"
                }
                if day == today { cls += " hm-today"; title += " (today)" }
                if day > today, calendar.byDay[day] == nil, !calendar.due.contains(day) { cls += " hm-future" }
                svg += "<rect class=\"\(cls)\" x=\"\(Text.fixed(x, 1))\" y=\"\(Text.fixed(y, 1))\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\">"
                    + "<title>\(Text.escaped(title))</title></rect>"
            }
        }
        svg += "</svg>"
        let legend = "<div class=\"legend\"><span class=\"legend-item\">less</span>"
            + (1...4).map { "<i class=\"chip hm\($0)\"></i>" }.joined()
            + "<span class=\"legend-item\">more distance</span><span class=\"legend-item\"><i class=\"chip hm-due\"></i>plan day due</span>"
            + "<span class=\"legend-item\"><i class=\"chip hm-today-key\"></i>today</span></div>"
        return "<div class=\"heatmap-wrap\">\(svg)</div>\(legend)"
    }

    /// A bar per week, with HTML axis labels.
    static func weeklyBars(caption: String, unit: String, cssClass: String, mondays: [CalendarDay], values: [Double],
                           label: (Double) -> String) -> String {
        let top = max(values.max() ?? 0, 1e-9)
        // Headroom above the tallest bar for its value label (the plot clips what overflows).
        let ticks = TimeChart.niceTicks(0...(top * 1.22), target: 4)
        let yMax = max(top * 1.22, ticks.last ?? top)
        let n = max(1, values.count)
        let slot = 1000.0 / Double(n)
        var svg = "<svg class=\"plot-svg\" viewBox=\"0 0 1000 1000\" preserveAspectRatio=\"none\" aria-hidden=\"true\">"
        for tick in ticks {
            let y = Text.fixed(1000 - tick / yMax * 1000, 1)
            svg += "<line class=\"grid\" x1=\"0\" x2=\"1000\" y1=\"\(y)\" y2=\"\(y)\"/>"
        }
        for (i, value) in values.enumerated() where value > 0 {
            let h = value / yMax * 1000
            svg += "<rect class=\"bar-rect \(cssClass)\" x=\"\(Text.fixed(Double(i) * slot + slot * 0.15, 1))\" y=\"\(Text.fixed(1000 - h, 1))\" "
                + "width=\"\(Text.fixed(slot * 0.7, 1))\" height=\"\(Text.fixed(h, 1))\"/>"
        }
        svg += "</svg>"
        var html = "<figure class=\"chart chart-\(cssClass)\"><figcaption><span class=\"chart-title\">\(Text.escaped(caption))</span> "
            + "<span class=\"chart-unit\">\(Text.escaped(unit))</span></figcaption><div class=\"chart-grid\"><div class=\"y-axis\">"
        for tick in ticks where tick > 0 && tick / yMax < 0.97 {
            html += "<span style=\"top:\(Text.fixed(100 - tick / yMax * 100, 2))%\">\(Text.escaped(label(tick)))</span>"
        }
        html += "</div><div class=\"plot bars\">\(svg)"
        for (i, value) in values.enumerated() where value > 0 {
            html += "<span class=\"bar-value\" style=\"left:\(Text.fixed((Double(i) + 0.5) * slot / 10, 2))%;"
                + "bottom:\(Text.fixed(value / yMax * 100, 2))%\">\(Text.escaped(label(value)))</span>"
        }
        html += "</div><div></div><div class=\"x-axis bar-axis\">"
        // Every third week is labelled (counted back from the latest), so labels never collide.
        let every = n > 6 ? 3 : 1
        for (i, monday) in mondays.enumerated() where (n - 1 - i) % every == 0 {
            html += "<span style=\"left:\(Text.fixed((Double(i) + 0.5) * slot / 10, 2))%\">\(shortDate(monday))</span>"
        }
        return html + "</div></div></figure>"
    }

    /// Average pace of each session of one workout, in order (faster is up).
    static func paceTrend(caption: String, unit: String, points: [(day: CalendarDay, pace: Double, id: Int64)]) -> String {
        let paces = points.map(\.pace)
        guard let fast = paces.min(), let slow = paces.max() else { return "" }
        let pad = max(10, (slow - fast) * 0.15)
        let lo = fast - pad, hi = slow + pad
        let ticks = TimeChart.niceTicks(lo...hi, target: 4, steps: [5, 10, 15, 30, 60, 120, 300])
        func y(_ pace: Double) -> Double { (pace - lo) / (hi - lo) * 1000 }
        func x(_ i: Int) -> Double { points.count == 1 ? 500 : 70 + Double(i) / Double(points.count - 1) * 860 }
        var svg = "<svg class=\"plot-svg\" viewBox=\"0 0 1000 1000\" preserveAspectRatio=\"none\" aria-hidden=\"true\">"
        for tick in ticks {
            svg += "<line class=\"grid\" x1=\"0\" x2=\"1000\" y1=\"\(Text.fixed(y(tick), 1))\" y2=\"\(Text.fixed(y(tick), 1))\"/>"
        }
        let path = points.enumerated().map { "\(Text.fixed(x($0.offset), 1)) \(Text.fixed(y($0.element.pace), 1))" }.joined(separator: "L")
        svg += "<path class=\"series pace\" d=\"M\(path)\"/></svg>"
        var html = "<figure class=\"chart chart-trend\"><figcaption><span class=\"chart-title\">\(Text.escaped(caption))</span> "
            + "<span class=\"chart-unit\">average pace per session, min\(unit) · faster is higher</span></figcaption>"
            + "<div class=\"chart-grid\"><div class=\"y-axis\">"
        for tick in ticks where (0.03...0.97).contains(y(tick) / 1000) {
            html += "<span style=\"top:\(Text.fixed(y(tick) / 10, 2))%\">\(TimeText.clock(tick))</span>"
        }
        html += "</div><div class=\"plot trend\">\(svg)"
        for (i, point) in points.enumerated() {
            html += "<span class=\"pt\" style=\"left:\(Text.fixed(x(i) / 10, 2))%;top:\(Text.fixed(y(point.pace) / 10, 2))%\" "
                + "title=\"session \(point.id), \(point.day): \(TimeText.clock(point.pace)) \(unit)\"></span>"
        }
        html += "</div><div></div><div class=\"x-axis\">"
        let labelled = points.count <= 6 ? Array(points.indices) : [0, points.count / 2, points.count - 1]
        for i in labelled {
            html += "<span style=\"left:\(Text.fixed(x(i) / 10, 2))%\">\(shortDate(points[i].day))</span>"
        }
        return html + "</div></div></figure>"
    }
}
