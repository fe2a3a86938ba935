import RunWalkCore

/// A chart of one quantity over the workout's time, with the phases shaded and labelled
/// behind it. The plot is an SVG stretched to its box (strokes keep their width), and the
/// labels are HTML laid over it, so text stays readable from a phone to a desktop.
struct TimeChart {
    /// A shaded phase: start and end in seconds, a CSS class and a long and short label.
    struct Band {
        var startSeconds: Double
        var endSeconds: Double
        var cssClass: String
        var label: String
        var shortLabel: String
    }

    /// A stretch without GPS positions, marked over the plot and labelled.
    struct Gap {
        var startSeconds: Double
        var endSeconds: Double
        var label: String
    }

    /// A phase's target band: its time span and its range of values, shaded across the plot.
    struct TargetArea {
        var startSeconds: Double
        var endSeconds: Double
        var low: Double
        var high: Double
        var label: String
    }

    /// A y-axis tick: its value and text.
    struct Tick {
        var value: Double
        var label: String
    }

    var caption: String
    var unitNote: String
    var cssClass: String
    var durationSeconds: Double
    var bands: [Band]
    /// Series values per time bucket (nil where there is no value: the line breaks).
    var samples: [(seconds: Double, value: Double?)]
    var yRange: ClosedRange<Double>
    /// Larger values drawn lower (pace: faster is up).
    var inverted = false
    /// Fill the area under the line.
    var filled = false
    var yTicks: [Tick]
    /// GPS gaps, hatched over the plot with their label.
    var gaps: [Gap] = []
    /// Target bands of the phases that had one, shaded between their values.
    var targets: [TargetArea] = []

    /// The chart as an HTML `<figure>`.
    func render() -> String {
        let span = max(1e-9, yRange.upperBound - yRange.lowerBound)
        func x(_ seconds: Double) -> Double { min(1000, max(0, seconds / max(1, durationSeconds) * 1000)) }
        func y(_ value: Double) -> Double {
            let f = (min(yRange.upperBound, max(yRange.lowerBound, value)) - yRange.lowerBound) / span
            return inverted ? f * 1000 : 1000 - f * 1000
        }
        var svg = "<svg class=\"plot-svg\" viewBox=\"0 0 1000 1000\" preserveAspectRatio=\"none\" aria-hidden=\"true\">"
        for band in bands {
            let x0 = x(band.startSeconds), x1 = x(band.endSeconds)
            svg += "<rect class=\"band \(band.cssClass)\" x=\"\(Text.fixed(x0, 1))\" y=\"0\" width=\"\(Text.fixed(max(0, x1 - x0), 1))\" height=\"1000\"/>"
        }
        for area in targets {
            let x0 = x(area.startSeconds), x1 = x(area.endSeconds)
            let top = min(y(area.low), y(area.high)), bottom = max(y(area.low), y(area.high))
            let (x0t, wt) = (Text.fixed(x0, 1), Text.fixed(max(0, x1 - x0), 1))
            svg += "<g class=\"target\"><title>\(Text.escaped(area.label))</title>"
            svg += "<rect class=\"target-band\" x=\"\(x0t)\" y=\"\(Text.fixed(top, 1))\" width=\"\(wt)\" height=\"\(Text.fixed(max(1, bottom - top), 1))\"/>"
            for edge in [top, bottom] {
                let ey = Text.fixed(edge, 1)
                svg += "<line class=\"target-edge\" x1=\"\(x0t)\" x2=\"\(Text.fixed(x1, 1))\" y1=\"\(ey)\" y2=\"\(ey)\"/>"
            }
            svg += "</g>"
        }
        for tick in yTicks {
            let ty = Text.fixed(y(tick.value), 1)
            svg += "<line class=\"grid\" x1=\"0\" x2=\"1000\" y1=\"\(ty)\" y2=\"\(ty)\"/>"
        }
        var path = ""
        var runs: [[(Double, Double)]] = []
        var current: [(Double, Double)] = []
        for sample in samples {
            if let value = sample.value {
                current.append((x(sample.seconds), y(value)))
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        for run in runs {
            path += "M" + run.map { Text.fixed($0.0, 1) + " " + Text.fixed($0.1, 1) }.joined(separator: "L")
        }
        if filled {
            for run in runs where run.count > 1 {
                let body = run.map { Text.fixed($0.0, 1) + " " + Text.fixed($0.1, 1) }.joined(separator: "L")
                svg += "<path class=\"area \(cssClass)\" d=\"M\(Text.fixed(run[0].0, 1)) 1000L\(body)L\(Text.fixed(run[run.count - 1].0, 1)) 1000Z\"/>"
            }
        }
        if !path.isEmpty { svg += "<path class=\"series \(cssClass)\" d=\"\(path)\"/>" }
        for gap in gaps {
            // At least a few thousandths wide, so a short gap on a long run still shows.
            let x0 = x(gap.startSeconds), x1 = max(x(gap.endSeconds), x0 + 3)
            svg += "<rect class=\"gap\" x=\"\(Text.fixed(x0, 1))\" y=\"0\" width=\"\(Text.fixed(x1 - x0, 1))\" height=\"1000\"/>"
        }
        svg += "</svg>"

        var html = "<figure class=\"chart chart-\(cssClass)\">"
        html += "<figcaption><span class=\"chart-title\">\(Text.escaped(caption))</span> <span class=\"chart-unit\">\(Text.escaped(unitNote))</span></figcaption>"
        html += "<div class=\"chart-grid\"><div class=\"y-axis\">"
        // Labels on the very edge would hang outside the plot: they keep their grid line only.
        for tick in yTicks where (30...970).contains(y(tick.value)) {
            html += "<span style=\"top:\(Text.fixed(y(tick.value) / 10, 2))%\">\(Text.escaped(tick.label))</span>"
        }
        html += "</div><div class=\"plot\">" + svg
        for band in bands where band.shortLabel != "" {
            let x0 = x(band.startSeconds), x1 = x(band.endSeconds)
            html += "<span class=\"band-label\" style=\"left:\(Text.fixed(x0 / 10, 2))%;width:\(Text.fixed((x1 - x0) / 10, 2))%\">"
            html += "<span class=\"long\">\(Text.escaped(band.label))</span><span class=\"short\">\(Text.escaped(band.shortLabel))</span></span>"
        }
        for gap in gaps {
            html += "<span class=\"gap-label\" style=\"left:\(Text.fixed(x(gap.startSeconds) / 10, 2))%\">\(Text.escaped(gap.label))</span>"
        }
        html += "</div><div></div><div class=\"x-axis\">"
        for (number, tick) in Self.timeTicks(durationSeconds: durationSeconds).enumerated() {
            // Every other time label is dropped on a phone (class "minor").
            let minor = number % 2 == 1 ? " class=\"minor\"" : ""
            html += "<span\(minor) style=\"left:\(Text.fixed(x(tick) / 10, 2))%\">\(TimeText.clock(tick))</span>"
        }
        html += "</div></div></figure>"
        return html
    }

    /// Round-minute ticks, at most about eight.
    static func timeTicks(durationSeconds: Double) -> [Double] {
        let steps: [Double] = [30, 60, 120, 300, 600, 900, 1800, 3600, 7200]
        let step = steps.first { durationSeconds / $0 <= 8 } ?? 14400
        var ticks: [Double] = []
        var t = 0.0
        while t <= durationSeconds + 0.5 {
            ticks.append(t)
            t += step
        }
        return ticks
    }

    /// Evenly spaced "nice" ticks covering `range` (steps of 1, 2, 2.5 or 5 times a power of ten, or given steps).
    static func niceTicks(_ range: ClosedRange<Double>, target: Int = 4, steps: [Double]? = nil) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span > 0 else { return [range.lowerBound] }
        let candidates: [Double]
        if let steps {
            candidates = steps
        } else {
            var list: [Double] = []
            var power = 1e-3
            while power < 1e7 {
                list += [power, 2 * power, 2.5 * power, 5 * power]
                power *= 10
            }
            candidates = list
        }
        let step = candidates.first { span / $0 <= Double(target) } ?? candidates.last ?? span
        var ticks: [Double] = []
        var value = (range.lowerBound / step).rounded(.up) * step
        while value <= range.upperBound + step * 1e-9 {
            ticks.append(value)
            value += step
        }
        return ticks
    }
}
