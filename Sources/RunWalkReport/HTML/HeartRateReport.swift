import RunWalkCore

/// The report's heart-rate parts (issue 32): the chart over time aligned with pace (same time
/// axis, phases shaded), tiles for the average, maximum, aerobic decoupling and the beat-to-beat
/// variability (RMSSD of the strap's RR intervals), and the time in
/// each zone. Nothing when the session has no heart rate.
enum HeartRateReport {
    /// The heart rate per time bucket: the mean of the points' heart rates in it.
    static func buckets(track: [TrackPoint], durationSeconds: Double, count: Int = 480) -> [(seconds: Double, value: Double?)] {
        guard durationSeconds > 0, !track.isEmpty else { return [] }
        let n = max(1, min(count, track.count))
        let width = durationSeconds / Double(n)
        var sum = Array(repeating: 0.0, count: n), number = Array(repeating: 0, count: n)
        for point in track {
            guard let bpm = point.heartRateBPM else { continue }
            let i = min(n - 1, max(0, Int(point.elapsedSeconds / width)))
            sum[i] += Double(bpm)
            number[i] += 1
        }
        return (0..<n).map { ((Double($0) + 0.5) * width, number[$0] > 0 ? sum[$0] / Double(number[$0]) : nil) }
    }

    /// The chart, placed right under the pace chart.
    static func chart(_ session: RecordedSession, durationSeconds: Double, bands: [TimeChart.Band],
                      gaps: [TimeChart.Gap]) -> String {
        let samples = buckets(track: session.track, durationSeconds: durationSeconds)
        let values = samples.compactMap(\.value)
        guard let low = values.min(), let high = values.max() else { return "" }
        let targets = TargetShading.heartRateAreas(session.summary)
        let range = TargetShading.covering(max(30, (low - 10).rounded(.down))...(high + 10).rounded(.up), targets, padding: 5)
        return TimeChart(caption: "Heart rate", unitNote: "bpm", cssClass: "heart", durationSeconds: durationSeconds,
                         bands: bands, samples: samples, yRange: range,
                         yTicks: TimeChart.niceTicks(range, target: 5).map { .init(value: $0, label: Text.fixed($0, 0)) },
                         gaps: gaps, targets: targets).render()
    }

    /// Aerobic decoupling over the workout, from the track's speeds and heart rates, percent.
    static func decoupling(_ session: RecordedSession) -> Double? {
        let speeds = session.track.compactMap { p in p.speedMetresPerSecond.map { (seconds: p.elapsedSeconds, metresPerSecond: $0) } }
        let samples = session.track.compactMap { p in p.heartRateBPM.map { HeartRateSample(seconds: p.elapsedSeconds, bpm: $0) } }
        guard let last = session.track.last else { return nil }
        return AerobicDecoupling.percent(speeds: speeds, samples: samples, from: 0, to: last.elapsedSeconds)
    }

    /// The section: tiles and the time in zones; empty without heart rate.
    static func section(_ session: RecordedSession) -> String {
        let summary = session.summary
        guard let average = summary.heartRateAverage, let maximum = summary.heartRateMax else { return "" }
        var html = "<section><h2>Heart rate</h2><div class=\"tiles\">"
        html += "<div class=\"tile\"><span class=\"label\">Avg heart rate</span><span class=\"value\">\(Text.fixed(average, 0)) <small>bpm</small></span></div>"
        html += "<div class=\"tile\"><span class=\"label\">Max heart rate</span><span class=\"value\">\(maximum) <small>bpm</small></span></div>"
        if let decoupling = decoupling(session) {
            html += "<div class=\"tile\"><span class=\"label\">Aerobic decoupling</span><span class=\"value\">\(Text.fixed(decoupling, 1)) <small>% pace:HR, 2nd half vs 1st</small></span></div>"
        }
        if let variability = HeartRateVariability(samples: session.heartRate) {
            html += "<div class=\"tile\"><span class=\"label\">Beat-to-beat variability</span><span class=\"value\">\(Text.fixed(variability.rmssdMilliseconds, 0)) <small>ms RMSSD, \(variability.intervals) beats</small></span></div>"
        }
        html += "</div>"
        if let zones = summary.heartRateZoneSeconds {
            let total = max(1, zones.reduce(0, +))
            html += "<div class=\"table-wrap\"><table class=\"zones\"><thead><tr><th scope=\"col\">Zone</th><th scope=\"col\">Time</th><th scope=\"col\">Share</th></tr></thead><tbody>"
            for (i, seconds) in zones.enumerated() {
                html += "<tr><td>Z\(i + 1)</td><td>\(TimeText.clock(seconds))</td><td>\(Text.fixed(seconds / total * 100, 0)) %</td></tr>"
            }
            html += "</tbody></table></div>"
        }
        return html + "</section>"
    }
}
