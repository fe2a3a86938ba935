import RunWalkCore

/// The route drawn to scale (north up, equal metres on both axes), coloured by pace, with
/// start, finish and distance markers and a scale bar.
struct RouteMap {
    /// Pace colour classes, fastest first.
    static let paceClasses = ["pace0", "pace1", "pace2", "pace3", "pace4", "pace5", "pace6"]

    var track: [TrackPoint]
    var style: UnitStyle
    /// Pace range for the colours, seconds per km (fast, slow).
    var fastPace: Double
    var slowPace: Double
    /// GPS gaps: a dashed line from the last position before each to the first after, labelled.
    var gaps: [GPSGapAccount] = []

    /// The map as an HTML `<figure>`, or nil without track points.
    func render() -> String? {
        guard let origin = track.first else { return nil }
        let plane = LocalPlane(originLatitude: origin.latitude, originLongitude: origin.longitude)
        let xy = track.map { p -> (Double, Double) in
            let q = plane.project(latitude: p.latitude, longitude: p.longitude)
            return (q.east, -q.north)
        }
        var minX = xy.map(\.0).min() ?? 0, maxX = xy.map(\.0).max() ?? 0
        var minY = xy.map(\.1).min() ?? 0, maxY = xy.map(\.1).max() ?? 0
        let extent = max(50, maxX - minX, maxY - minY)
        // Room for markers and the scale bar; at least 3:2 wide so a north–south route is not a sliver.
        let pad = extent * 0.08
        minX -= pad; maxX += pad; minY -= pad; maxY += pad * 2.2
        let width = max(maxX - minX, (maxY - minY) * 1.0), height = max(maxY - minY, width * 0.55)
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        minX = cx - width / 2; minY = cy - height / 2
        func f(_ v: Double) -> String { Text.fixed(v, 1) }

        var svg = "<svg class=\"route\" viewBox=\"\(f(minX)) \(f(minY)) \(f(width)) \(f(height))\" role=\"img\" aria-label=\"Route map coloured by pace\">"
        svg += "<rect class=\"map-bg\" x=\"\(f(minX))\" y=\"\(f(minY))\" width=\"\(f(width))\" height=\"\(f(height))\"/>"
        // Decimate to about a metre per 700th of the view, keeping colour changes and gaps.
        let minStep = max(width, height) / 700
        var groups: [(cls: String, points: [(Double, Double)])] = []
        var lastKept: (Double, Double)?
        for (i, point) in track.enumerated() {
            let cls = colourClass(point.paceSecondsPerKm)
            let p = xy[i]
            if point.afterGap || groups.isEmpty {
                groups.append((cls, [p]))
                lastKept = p
                continue
            }
            if cls != groups[groups.count - 1].cls {
                let joint = groups[groups.count - 1].points.last ?? p
                groups[groups.count - 1].points.append(p)
                groups.append((cls, [joint, p]))
                lastKept = p
                continue
            }
            if let last = lastKept, (p.0 - last.0) * (p.0 - last.0) + (p.1 - last.1) * (p.1 - last.1) < minStep * minStep,
               i != track.count - 1 { continue }
            groups[groups.count - 1].points.append(p)
            lastKept = p
        }
        svg += "<g class=\"track-casing\">"
        for group in groups where group.points.count > 1 {
            svg += "<polyline points=\"\(group.points.map { f($0.0) + "," + f($0.1) }.joined(separator: " "))\"/>"
        }
        svg += "</g><g class=\"track-line\">"
        for group in groups where group.points.count > 1 {
            svg += "<polyline class=\"\(group.cls)\" points=\"\(group.points.map { f($0.0) + "," + f($0.1) }.joined(separator: " "))\"/>"
        }
        svg += "</g>"

        svg += gapLines(xy, width: max(width, height))

        // Distance markers every unit, then start and finish on top.
        let r = max(width, height) * 0.022
        let unit = style.metresPerDistanceUnit
        var next = unit, number = 1
        for (i, point) in track.enumerated() where point.distanceMetres >= next {
            while point.distanceMetres >= next + unit { next += unit; number += 1 }
            svg += marker(xy[i], r: r * 0.8, cls: "km-marker", text: String(number))
            next += unit
            number += 1
        }
        svg += marker(xy[0], r: r, cls: "start-marker", text: "S")
        svg += marker(xy[xy.count - 1], r: r, cls: "finish-marker", text: "F")

        // Scale bar, bottom left.
        let barMetres = Self.niceLength(width * 0.25)
        let bx = minX + width * 0.04, by = minY + height - height * 0.06
        svg += "<g class=\"scale\"><line x1=\"\(f(bx))\" y1=\"\(f(by))\" x2=\"\(f(bx + barMetres))\" y2=\"\(f(by))\"/>"
        svg += "<line x1=\"\(f(bx))\" y1=\"\(f(by - r * 0.5))\" x2=\"\(f(bx))\" y2=\"\(f(by + r * 0.5))\"/>"
        svg += "<line x1=\"\(f(bx + barMetres))\" y1=\"\(f(by - r * 0.5))\" x2=\"\(f(bx + barMetres))\" y2=\"\(f(by + r * 0.5))\"/>"
        svg += "<text x=\"\(f(bx + barMetres / 2))\" y=\"\(f(by - r * 0.8))\" font-size=\"\(f(r * 1.3))\">\(Self.lengthLabel(barMetres))</text></g>"
        svg += "<g class=\"north\"><text x=\"\(f(minX + width - r * 2))\" y=\"\(f(minY + r * 2.4))\" font-size=\"\(f(r * 1.4))\">N ↑</text></g>"
        svg += "</svg>"

        var legend = "<div class=\"legend pace-legend\"><span>faster</span>"
        for cls in Self.paceClasses { legend += "<i class=\"swatch \(cls)\"></i>" }
        legend += "<span>slower</span><span class=\"legend-range\">\(style.pace(fastPace)) – \(style.pace(slowPace)) \(style.paceUnit)</span>"
        legend += "<span class=\"legend-item\"><i class=\"dot start-dot\"></i>start</span><span class=\"legend-item\"><i class=\"dot finish-dot\"></i>finish</span>"
        legend += "<span class=\"legend-item\"><i class=\"dot km-dot\"></i>\(style.distanceUnit)</span></div>"
        return "<figure class=\"map\">\(svg)\(legend)</figure>"
    }

    /// The gaps the GPS came back from, as dashed lines between their ends, each labelled `GPS gap 0:42`.
    private func gapLines(_ xy: [(Double, Double)], width: Double) -> String {
        var svg = ""
        for gap in gaps {
            guard let end = gap.endSeconds, gap.reason == .signalLost,
                  let before = track.lastIndex(where: { $0.elapsedSeconds <= gap.startSeconds + 0.0015 }),
                  let after = track.firstIndex(where: { $0.elapsedSeconds >= end - 0.0015 }), after > before else { continue }
            let a = xy[before], b = xy[after]
            let label = "GPS gap" + (gap.durationSeconds.map { " " + TimeText.clock($0) } ?? "")
            svg += "<g class=\"gap-line\" data-start-s=\"\(Text.fixed(gap.startSeconds, 1))\"><line x1=\"\(Text.fixed(a.0, 1))\" y1=\"\(Text.fixed(a.1, 1))\" "
                + "x2=\"\(Text.fixed(b.0, 1))\" y2=\"\(Text.fixed(b.1, 1))\"/><text x=\"\(Text.fixed((a.0 + b.0) / 2, 1))\" "
                + "y=\"\(Text.fixed((a.1 + b.1) / 2 - width * 0.015, 1))\" font-size=\"\(Text.fixed(width * 0.025, 1))\">\(Text.escaped(label))</text></g>"
        }
        return svg
    }

    private func marker(_ p: (Double, Double), r: Double, cls: String, text: String) -> String {
        let x = Text.fixed(p.0, 1), y = Text.fixed(p.1, 1)
        return "<g class=\"\(cls)\"><circle cx=\"\(x)\" cy=\"\(y)\" r=\"\(Text.fixed(r, 1))\"/>"
            + "<text x=\"\(x)\" y=\"\(Text.fixed(p.1 + r * 0.42, 1))\" font-size=\"\(Text.fixed(r * 1.15, 1))\">\(text)</text></g>"
    }

    /// The colour class for a pace; standing (no pace) is its own grey.
    func colourClass(_ pace: Double?) -> String {
        guard let pace, pace.isFinite, pace > 0 else { return "pace-none" }
        let f = (pace - fastPace) / max(1, slowPace - fastPace)
        let bin = Int((min(0.999, max(0, f)) * Double(Self.paceClasses.count)).rounded(.down))
        return Self.paceClasses[bin]
    }

    static func niceLength(_ metres: Double) -> Double {
        let options: [Double] = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000]
        return options.last { $0 <= metres } ?? 5
    }

    static func lengthLabel(_ metres: Double) -> String {
        metres >= 1000 ? Text.compact(metres / 1000, 1) + " km" : Text.fixed(metres, 0) + " m"
    }
}
