import RunWalkCore

/// The report's charts and route as standalone SVG documents at a given pixel size, for a
/// front end that shows pictures rather than HTML (the app, through gdk-pixbuf's SVG loader).
///
/// The data are the report's: the same time buckets, phase bands, ticks and pace colours; the
/// route is the report's own SVG. What differs is that the colours are written out (no CSS
/// variables) and the labels are SVG text, so librsvg draws them without a browser.
public enum SessionFigures {
    /// Light or dark colours.
    public enum Scheme: Sendable { case light, dark }

    struct Palette {
        var background, text, muted, grid, pace, distance, bandRun, bandWalk, bandEasy, mapBackground, casing, finish, finishText: String

        init(_ scheme: Scheme) {
            switch scheme {
            case .light:
                (background, text, muted, grid, pace, distance) = ("#ffffff", "#1b1f24", "#5c6673", "#e6e9ee", "#e8590c", "#1c7ed6")
                (bandRun, bandWalk, bandEasy) = ("rgba(232,89,12,0.13)", "rgba(16,152,173,0.12)", "rgba(120,126,140,0.10)")
                (mapBackground, casing, finish, finishText) = ("#eef1f4", "#ffffff", "#1b1f24", "#ffffff")
            case .dark:
                (background, text, muted, grid, pace, distance) = ("#181c22", "#e7eaef", "#9aa4b2", "#2a313b", "#ff922b", "#4dabf7")
                (bandRun, bandWalk, bandEasy) = ("rgba(255,146,43,0.16)", "rgba(34,184,207,0.15)", "rgba(160,166,180,0.10)")
                (mapBackground, casing, finish, finishText) = ("#12161b", "#0f1216", "#f1f3f5", "#111111")
            }
        }
    }

    /// Pace over the workout's time, faster higher, with the phases shaded; nil without a pace.
    public static func paceChart(_ session: RecordedSession, width: Int, height: Int, scheme: Scheme) -> String? {
        let style = UnitStyle(session.summary.units)
        let duration = duration(session)
        let paces = session.track.compactMap(\.paceSecondsPerKm).filter { $0.isFinite && $0 > 0 }.sorted()
        guard !paces.isEmpty, duration > 0 else { return nil }
        let fast = HTMLReport.percentile(paces, 0.03) ?? 240, slow = min(HTMLReport.percentile(paces, 0.97) ?? 900, 1500)
        let lo = style.paceValue(fast), hi = max(style.paceValue(slow), lo + 60)
        let pad = (hi - lo) * 0.08
        let range = (lo - pad)...(hi + pad)
        let ticks = TimeChart.niceTicks(range, target: 4, steps: [10, 15, 30, 60, 120, 300, 600])
        let buckets = Buckets(track: session.track, durationSeconds: duration, count: max(60, width / 3))
        return chart(session, width: width, height: height, scheme: scheme, title: "Pace (min\(style.paceUnit), faster is higher)",
                     samples: buckets.pace.map { ($0.seconds, $0.value.map(style.paceValue)) }, range: range, inverted: true,
                     ticks: ticks.map { ($0, TimeText.clock($0)) }, colour: Palette(scheme).pace, filled: false)
    }

    /// Distance covered over the workout's time, with the phases shaded; nil without a track.
    public static func distanceChart(_ session: RecordedSession, width: Int, height: Int, scheme: Scheme) -> String? {
        let style = UnitStyle(session.summary.units)
        let duration = duration(session)
        guard let last = session.track.last, duration > 0 else { return nil }
        let top = max(style.metresPerDistanceUnit * 0.5, last.distanceMetres) / style.metresPerDistanceUnit * 1.05
        let ticks = TimeChart.niceTicks(0...top, target: 4)
        let n = max(2, min(session.track.count, width / 3))
        let samples = (0..<n).map { i -> (Double, Double?) in
            let point = session.track[min(session.track.count - 1, i * session.track.count / n)]
            return (point.elapsedSeconds, point.distanceMetres / style.metresPerDistanceUnit)
        } + [(last.elapsedSeconds, last.distanceMetres / style.metresPerDistanceUnit)]
        return chart(session, width: width, height: height, scheme: scheme, title: "Distance (\(style.distanceUnit))",
                     samples: samples, range: 0...top, inverted: false,
                     ticks: ticks.map { ($0, Text.compact($0, 1)) }, colour: Palette(scheme).distance, filled: true)
    }

    /// The report's route map (to scale, north up, coloured by pace, start, finish and distance
    /// markers, scale bar) as a standalone SVG `width` pixels wide; nil without a track.
    public static func route(_ session: RecordedSession, width: Int, scheme: Scheme) -> String? {
        let style = UnitStyle(session.summary.units)
        let paces = session.track.compactMap(\.paceSecondsPerKm).filter { $0.isFinite && $0 > 0 }.sorted()
        let fast = HTMLReport.percentile(paces, 0.03) ?? 240, slow = min(HTMLReport.percentile(paces, 0.97) ?? 900, 1500)
        let gaps = GPSGapAccount.accounts(session.summary, track: session.track)
        guard let figure = RouteMap(track: session.track, style: style, fastPace: fast, slowPace: max(slow, fast + 30), gaps: gaps).render(),
              let open = figure.firstRange(of: "<svg "), let close = figure.firstRange(of: "</svg>"),
              let box = viewBox(String(figure[open.lowerBound..<close.upperBound])) else { return nil }
        let height = Int((Double(width) * box.height / max(1, box.width)).rounded())
        // Strokes in metres: the report's pixel widths at this picture's scale.
        let metresPerPixel = box.width / Double(max(1, width))
        let p = Palette(scheme)
        func w(_ pixels: Double) -> String { Text.fixed(pixels * metresPerPixel, 2) }
        var css = ".map-bg{fill:\(p.mapBackground)}"
        css += ".track-casing polyline{fill:none;stroke:\(p.casing);stroke-width:\(w(7));stroke-linejoin:round;stroke-linecap:round}"
        css += ".track-line polyline{fill:none;stroke-width:\(w(4));stroke-linejoin:round;stroke-linecap:round}"
        let paceColours = ["#b2182b", "#e34a33", "#f08c00", "#d4a800", "#66a80f", "#1098ad", "#1864ab"]
        for (cls, colour) in zip(RouteMap.paceClasses, paceColours) { css += ".\(cls){stroke:\(colour)}" }
        css += ".pace-none{stroke:#868e96}"
        css += ".start-marker circle{fill:#2b8a3e}.finish-marker circle{fill:\(p.finish)}"
        css += ".km-marker circle{fill:#ffffff;stroke:#1b1f24;stroke-width:\(w(1.5))}"
        css += ".finish-marker text{fill:\(p.finishText)}.start-marker text{fill:#ffffff}"
        css += "text{font-family:sans-serif;font-weight:700;text-anchor:middle}.km-marker text{fill:#1b1f24}"
        css += ".scale line{stroke:\(p.text);stroke-width:\(w(2))}.scale text,.north text{fill:\(p.text)}"
        css += ".gap-line line{stroke:#c62828;stroke-width:\(w(2.5));stroke-dasharray:\(w(6)) \(w(5))}.gap-line text{fill:#c62828}"
        var svg = String(figure[open.lowerBound..<close.upperBound])
        svg.replaceSubrange(svg.startIndex..<svg.index(svg.startIndex, offsetBy: 5),
                            with: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" ")
        if let tagEnd = svg.firstIndex(of: ">") { svg.insert(contentsOf: "<style>\(css)</style>", at: svg.index(after: tagEnd)) }
        return svg
    }

    static func duration(_ session: RecordedSession) -> Double {
        max(session.elapsedSeconds, session.track.last?.elapsedSeconds ?? 0)
    }

    static func viewBox(_ svg: String) -> (width: Double, height: Double)? {
        guard let start = svg.firstRange(of: "viewBox=\"") else { return nil }
        let rest = svg[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let numbers = rest[..<end].split(separator: " ").compactMap { Double($0) }
        return numbers.count == 4 ? (numbers[2], numbers[3]) : nil
    }

    /// A time chart drawn at pixel size: phase bands, grid lines with their labels, the series, time labels below.
    static func chart(_ session: RecordedSession, width: Int, height: Int, scheme: Scheme, title: String,
                      samples: [(Double, Double?)], range: ClosedRange<Double>, inverted: Bool,
                      ticks: [(Double, String)], colour: String, filled: Bool) -> String {
        let p = Palette(scheme)
        let duration = duration(session)
        let left = 46.0, right = Double(width) - 10, top = 26.0, bottom = Double(height) - 22
        let span = max(1e-9, range.upperBound - range.lowerBound)
        func x(_ seconds: Double) -> Double { left + min(1, max(0, seconds / max(1, duration))) * (right - left) }
        func y(_ value: Double) -> Double {
            let f = (min(range.upperBound, max(range.lowerBound, value)) - range.lowerBound) / span
            return inverted ? top + f * (bottom - top) : bottom - f * (bottom - top)
        }
        func f(_ v: Double) -> String { Text.fixed(v, 1) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">"
        svg += "<rect width=\"\(width)\" height=\"\(height)\" rx=\"10\" fill=\"\(p.background)\"/>"
        svg += "<text x=\"\(f(left))\" y=\"17\" font-family=\"sans-serif\" font-size=\"14\" font-weight=\"700\" fill=\"\(p.text)\">\(Text.escaped(title))</text>"
        for band in HTMLReport.phaseBands(session.summary) {
            let fill = band.cssClass == "band-run" ? p.bandRun : band.cssClass == "band-walk" ? p.bandWalk : p.bandEasy
            let x0 = x(band.startSeconds), x1 = x(band.endSeconds)
            svg += "<rect x=\"\(f(x0))\" y=\"\(f(top))\" width=\"\(f(max(0, x1 - x0)))\" height=\"\(f(bottom - top))\" fill=\"\(fill)\"/>"
        }
        for (value, label) in ticks {
            let ty = y(value)
            svg += "<line x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(ty))\" y2=\"\(f(ty))\" stroke=\"\(p.grid)\" stroke-width=\"1\"/>"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(ty + 4))\" text-anchor=\"end\" font-family=\"sans-serif\" font-size=\"12\" fill=\"\(p.muted)\">\(Text.escaped(label))</text>"
        }
        var runs: [[(Double, Double)]] = [[]]
        for (seconds, value) in samples {
            if let value { runs[runs.count - 1].append((x(seconds), y(value))) } else if !(runs.last ?? []).isEmpty { runs.append([]) }
        }
        for run in runs where run.count > 1 {
            let line = run.map { f($0.0) + " " + f($0.1) }.joined(separator: "L")
            if filled {
                svg += "<path d=\"M\(f(run[0].0)) \(f(bottom))L\(line)L\(f(run[run.count - 1].0)) \(f(bottom))Z\" fill=\"\(colour)\" fill-opacity=\"0.18\"/>"
            }
            svg += "<path d=\"M\(line)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2.2\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
        }
        svg += "<line x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(bottom))\" y2=\"\(f(bottom))\" stroke=\"\(p.muted)\" stroke-width=\"1\"/>"
        // Time labels: fewer on a narrow picture, so they never touch.
        let all = TimeChart.timeTicks(durationSeconds: duration)
        let every = max(1, Int((Double(all.count) * 44 / max(1, right - left)).rounded(.up)))
        for (i, t) in all.enumerated() where i % every == 0 {
            let anchor = i == 0 ? "start" : "middle"
            svg += "<text x=\"\(f(x(t)))\" y=\"\(f(bottom + 16))\" text-anchor=\"\(anchor)\" font-family=\"sans-serif\" font-size=\"12\" fill=\"\(p.muted)\">\(TimeText.clock(t))</text>"
        }
        return svg + "</svg>"
    }
}
