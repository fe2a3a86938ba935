import RunWalkCore

/// Renders a session as one self-contained HTML page: totals, pace/speed/elevation over
/// time with the phases shaded, the route to scale coloured by pace, the per-interval
/// table (planned vs actual) and the splits. Inline CSS and SVG only; no script, no
/// network; every piece of user text escaped.
public enum HTMLReport {
    /// The page.
    public static func render(_ session: RecordedSession) -> String {
        let summary = session.summary
        let style = UnitStyle(summary.units)
        let duration = max(session.elapsedSeconds, session.track.last?.elapsedSeconds ?? 0)
        let bands = phaseBands(summary)
        let buckets = Buckets(track: session.track, durationSeconds: duration)
        let gaps = GPSGapAccount.accounts(summary, track: session.track)
        let chartGaps = GapReport.chartGaps(gaps, durationSeconds: duration)

        var body = header(session)
        body += totals(session, style: style)

        let paces = session.track.compactMap(\.paceSecondsPerKm).filter { $0.isFinite && $0 > 0 }.sorted()
        let fast = percentile(paces, 0.03) ?? 240, slow = min(percentile(paces, 0.97) ?? 900, 1500)
        var charts = "<section class=\"charts\"><h2>Pace and speed</h2>"
        charts += phaseKey(targets: TargetShading.legendItem(summary))
        if !paces.isEmpty {
            let lo = style.paceValue(fast), hi = max(style.paceValue(slow), lo + 60)
            let pad = (hi - lo) * 0.08
            let paceTargets = TargetShading.paceAreas(summary, style: style)
            let range = TargetShading.covering((lo - pad)...(hi + pad), paceTargets, padding: pad)
            let ticks = TimeChart.niceTicks(range, target: 6, steps: [10, 15, 30, 60, 120, 300, 600])
            charts += TimeChart(caption: "Pace", unitNote: "min\(style.paceUnit) · faster is higher", cssClass: "pace",
                                durationSeconds: duration, bands: bands,
                                samples: buckets.pace.map { ($0.seconds, $0.value.map(style.paceValue)) },
                                yRange: range, inverted: true, yTicks: ticks.map { .init(value: $0, label: TimeText.clock($0)) },
                                gaps: chartGaps, targets: paceTargets).render()
        }
        charts += HeartRateReport.chart(session, durationSeconds: duration, bands: bands, gaps: chartGaps)
        let speeds = buckets.speed.compactMap(\.value).map(style.speedValue)
        if !speeds.isEmpty {
            let top = max(2, (speeds.max() ?? 1) * 1.1)
            let ticks = TimeChart.niceTicks(0...top, target: 5)
            charts += TimeChart(caption: "Speed", unitNote: style.speedUnit, cssClass: "speed", durationSeconds: duration, bands: bands,
                                samples: buckets.speed.map { ($0.seconds, $0.value.map(style.speedValue)) },
                                yRange: 0...top, yTicks: ticks.map { .init(value: $0, label: Text.compact($0, 1)) },
                                gaps: chartGaps).render()
        }
        let heights = buckets.altitude.compactMap(\.value).map(style.elevationValue)
        if let low = heights.min(), let high = heights.max() {
            // At least 20 m (66 ft) tall, so a flat run looks flat rather than like magnified GPS noise.
            let middle = (low + high) / 2, half = max(style.elevationValue(10), (high - low) / 2 * 1.15)
            let range = (middle - half)...(middle + half)
            let note = "\(style.elevationUnit) above sea level · \(Text.fixed(low, 0))–\(Text.fixed(high, 0)) \(style.elevationUnit)"
            charts += TimeChart(caption: "Elevation", unitNote: note, cssClass: "elevation",
                                durationSeconds: duration, bands: bands,
                                samples: buckets.altitude.map { ($0.seconds, $0.value.map(style.elevationValue)) },
                                yRange: range, filled: true,
                                yTicks: TimeChart.niceTicks(range, target: 4).map { .init(value: $0, label: Text.fixed($0, 0)) }).render()
        }
        charts += "</section>"
        body += charts

        if let map = RouteMap(track: session.track, style: style, fastPace: fast, slowPace: max(slow, fast + 30), gaps: gaps).render() {
            body += "<section><h2>Route</h2>\(map)</section>"
        }
        if !summary.phases.isEmpty {
            body += "<section><h2>Intervals <span class=\"chart-unit\">planned vs actual</span></h2>\(ReportTables.intervals(summary, style: style))</section>"
        }
        body += HeartRateReport.section(session)
        if let section = GapReport.section(gaps, style: style) { body += section }
        body += "<section><h2>Splits <span class=\"chart-unit\">per \(style.distanceUnit)</span></h2>\(ReportTables.splits(summary, style: style))</section>"
        let f = summary.fixes
        body += "<footer>RunWalk report · \(session.track.count) track points from \(f.epochs) GPS epochs (\(f.used) used, \(f.rejected) rejected, \(f.linesBad) bad lines) · times in UTC</footer>"

        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<meta name=\"color-scheme\" content=\"light dark\">"
            + "<title>\(Text.escaped(summary.workout)) · RunWalk</title><style>\(HTMLStyle.css)</style></head>\n"
            + "<body><main>\(body)</main></body></html>\n"
    }

    static func header(_ session: RecordedSession) -> String {
        let summary = session.summary
        var when = "Start time unknown"
        if let start = session.startTime {
            let (y, m, d) = start.civilDate
            let ms = Int(start.millisecondOfDay)
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            when = "\(d) \(months[max(0, min(11, m - 1))]) \(y), \(Text.padded(ms / 3_600_000, 2)):\(Text.padded(ms / 60_000 % 60, 2)) UTC"
        }
        var meta = when
        if summary.pausedSeconds > 0 {
            meta += " · paused \(Text.escaped(TimeText.clock(summary.pausedSeconds)))"
        }
        return "<header><p class=\"eyebrow\">RunWalk · run/walk intervals</p><h1>\(Text.escaped(summary.workout))</h1>"
            + "<p class=\"meta\">\(meta)<span class=\"badge \(summary.state.rawValue)\">\(Text.escaped(summary.state.title))</span></p></header>"
    }

    static func totals(_ session: RecordedSession, style: UnitStyle) -> String {
        let summary = session.summary
        func tile(_ label: String, _ value: String, _ unit: String = "", primary: Bool = false) -> String {
            "<div class=\"tile\(primary ? " primary" : "")\"><span class=\"label\">\(label)</span><span class=\"value\">\(value)"
                + (unit.isEmpty ? "" : " <small>\(unit)</small>") + "</span></div>"
        }
        func pace(of kind: PhaseKind) -> Double? {
            let phases = summary.phases.filter { $0.kind == kind }
            let metres = phases.reduce(0) { $0 + $1.distanceMetres }, seconds = phases.reduce(0) { $0 + $1.durationSeconds }
            return metres >= 1 ? seconds / metres * 1000 : nil
        }
        var html = "<section class=\"tiles\">"
        html += tile("Distance", Text.fixed(summary.distanceMetres / style.metresPerDistanceUnit, 2), style.distanceUnit, primary: true)
        html += tile("Time", TimeText.clock(summary.durationSeconds))
        html += tile("Avg pace", style.pace(summary.averagePaceSecondsPerKm), style.paceUnit)
        if let run = pace(of: .run) { html += tile("Run pace", style.pace(run), style.paceUnit) }
        if let walk = pace(of: .walk) { html += tile("Walk pace", style.pace(walk), style.paceUnit) }
        html += tile("Moving time", TimeText.clock(summary.movingTimeSeconds))
        return html + "</section>"
    }

    /// The legend for the phase shading.
    static func phaseKey(targets: String = "") -> String {
        "<div class=\"legend\" style=\"margin:0 0 10px\"><span class=\"legend-item\"><i class=\"chip key-easy\"></i>warm-up / cool-down</span>"
            + "<span class=\"legend-item\"><i class=\"chip key-run\"></i>run</span><span class=\"legend-item\"><i class=\"chip key-walk\"></i>walk</span>"
            + targets + "</div>"
    }

    static func phaseBands(_ summary: Summary) -> [TimeChart.Band] {
        var run = 0
        return summary.phases.map { phase in
            let cls: String, label: String, short: String
            switch phase.kind {
            case .run:
                run += 1
                (cls, label, short) = ("band-run", "Run \(run)", "\(run)")
            case .walk: (cls, label, short) = ("band-walk", "", "")
            case .warmup: (cls, label, short) = ("band-easy", "Warm-up", "WU")
            case .cooldown: (cls, label, short) = ("band-easy", "Cool-down", "CD")
            }
            return TimeChart.Band(startSeconds: phase.startSeconds, endSeconds: phase.startSeconds + phase.durationSeconds,
                                  cssClass: cls, label: label, shortLabel: short)
        }
    }

    static func percentile(_ sorted: [Double], _ q: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * q).rounded())))]
    }
}

/// The track averaged into equal time buckets for the charts (a few hundred points, whatever the fix rate).
struct Buckets {
    var pace: [(seconds: Double, value: Double?)] = []
    var speed: [(seconds: Double, value: Double?)] = []
    var altitude: [(seconds: Double, value: Double?)] = []

    init(track: [TrackPoint], durationSeconds: Double, count: Int = 480) {
        guard durationSeconds > 0, !track.isEmpty else { return }
        let n = max(1, min(count, track.count))
        let width = durationSeconds / Double(n)
        var speedSum = Array(repeating: 0.0, count: n), speedN = Array(repeating: 0, count: n)
        var altSum = Array(repeating: 0.0, count: n), altN = Array(repeating: 0, count: n)
        var paceSum = Array(repeating: 0.0, count: n), paceN = Array(repeating: 0, count: n)
        for point in track {
            let i = min(n - 1, max(0, Int(point.elapsedSeconds / width)))
            if let s = point.speedMetresPerSecond { speedSum[i] += s; speedN[i] += 1 }
            if let a = point.altitudeMSL { altSum[i] += a; altN[i] += 1 }
            if let p = point.paceSecondsPerKm, p.isFinite, p > 0 { paceSum[i] += 1000 / p; paceN[i] += 1 }
        }
        for i in 0..<n {
            let t = (Double(i) + 0.5) * width
            speed.append((t, speedN[i] > 0 ? speedSum[i] / Double(speedN[i]) : nil))
            altitude.append((t, altN[i] > 0 ? altSum[i] / Double(altN[i]) : nil))
            // Average speed, then invert: averaging paces would overweight slow moments.
            let v = paceN[i] > 0 ? paceSum[i] / Double(paceN[i]) : 0
            pace.append((t, v > 0 ? 1000 / v : nil))
        }
    }
}
