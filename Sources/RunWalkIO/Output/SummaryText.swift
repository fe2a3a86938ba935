import FoundationEssentials
import RunWalkCore

/// The summary as a terminal table.
public enum SummaryText {
    /// The table; with the recorded `track`, each GPS gap says how much distance was counted across it.
    public static func render(_ s: Summary, track: [TrackPoint] = []) -> String {
        var lines: [String] = []
        lines.append("Workout   \(s.workout)")
        if let start = s.startUTC { lines.append("Start     \(start)") }
        lines.append("Result    \(s.state.rawValue)")
        lines.append("Distance  \(distance(s.distanceMetres, s.units))")
        var time = "Time      \(TimeText.clock(s.durationSeconds))   moving \(TimeText.clock(s.movingTimeSeconds))"
        if s.pausedSeconds > 0 { time += "   paused \(TimeText.clock(s.pausedSeconds))   elapsed \(TimeText.clock(s.elapsedSeconds))" }
        lines.append(time)
        lines.append("Pace      \(pace(s.averagePaceSecondsPerKm, s.units))")
        lines += heartRate(s, track: track)
        lines.append("")
        lines.append(row(["#", "phase", "start", "planned", "time", "distance", "pace"], widths: [3, 9, 8, 9, 8, 10, 10]))
        for p in s.phases {
            let planned = p.planned.until.map { String($0.dropFirst("until ".count)) }
                ?? p.planned.durationSeconds.map { TimeText.clock($0) } ?? p.planned.distanceMetres.map { distance($0, s.units) } ?? "-"
            var line = row([String(p.index + 1), p.kind.rawValue, TimeText.clock(p.startSeconds), planned, TimeText.clock(p.durationSeconds),
                            distance(p.distanceMetres, s.units), pace(p.averagePaceSecondsPerKm, s.units)],
                           widths: [3, 9, 8, 9, 8, 10, 10])
            if let average = p.heartRateAverage, let maximum = p.heartRateMax {
                line += CFormat.string("  hr %ld/%ld", Int(average.rounded()), maximum)
            }
            if p.endReason != .completed { line += "  \(p.endReason.rawValue)" }
            lines.append(line)
        }
        lines += targets(s.phases)
        if !s.splits.isEmpty {
            lines.append("")
            lines.append(row([s.units == .metric ? "km" : "mile", "elapsed", "split", "pace"], widths: [5, 9, 8, 10]))
            for split in s.splits {
                lines.append(row([String(split.index), TimeText.clock(split.elapsedSeconds), TimeText.clock(split.splitSeconds),
                                  pace(split.paceSecondsPerKm, s.units)], widths: [5, 9, 8, 10]))
            }
        }
        let happenings = (s.events ?? []).filter { ![.start, .completed, .stopped].contains($0.kind) }
        if !happenings.isEmpty {
            lines.append("")
            lines.append("Events    " + happenings.map { "\($0.kind.rawValue.replacing("_", with: " ")) \(TimeText.clock($0.atSeconds))" }
                .joined(separator: ", "))
        }
        lines += gaps(GPSGapAccount.accounts(s, track: track), units: s.units)
        lines.append("")
        lines.append("Fixes     \(s.fixes.epochs) epochs, \(s.fixes.used) used, \(s.fixes.rejected) rejected, \(s.fixes.linesBad) bad lines")
        return lines.joined(separator: "\n")
    }

    /// The phases with a band: the band, and the time in, below and above it (issue 33).
    static func targets(_ phases: [Summary.Phase]) -> [String] {
        let banded = phases.filter { $0.target != nil }
        guard !banded.isEmpty else { return [] }
        let widths = [3, 9, 16, 8, 8, 8]
        var lines = ["", row(["#", "phase", "target", "in", "below", "above"], widths: widths)]
        for p in banded {
            lines.append(row([String(p.index + 1), p.kind.rawValue, p.target?.text ?? "", TimeText.clock(p.timeInTargetSeconds ?? 0),
                              TimeText.clock(p.timeBelowSeconds ?? 0), TimeText.clock(p.timeAboveSeconds ?? 0)], widths: widths))
        }
        return lines
    }

    /// The heart-rate lines: average and maximum, aerobic decoupling (from the track), time in zones.
    static func heartRate(_ s: Summary, track: [TrackPoint]) -> [String] {
        guard let average = s.heartRateAverage, let maximum = s.heartRateMax else { return [] }
        var line = CFormat.string("Heart     avg %ld bpm, max %ld bpm", Int(average.rounded()), maximum)
        let speeds = track.compactMap { p in p.speedMetresPerSecond.map { (seconds: p.elapsedSeconds, metresPerSecond: $0) } }
        let samples = track.compactMap { p in p.heartRateBPM.map { HeartRateSample(seconds: p.elapsedSeconds, bpm: $0) } }
        if let end = track.last?.elapsedSeconds,
           let decoupling = AerobicDecoupling.percent(speeds: speeds, samples: samples, from: 0, to: end) {
            line += CFormat.string(", decoupling %.1f %%", decoupling)
        }
        var lines = [line]
        if let zones = s.heartRateZoneSeconds {
            lines.append("Zones     " + zones.enumerated().map { "Z\($0.offset + 1) \(TimeText.clock($0.element))" }.joined(separator: "  "))
        }
        return lines
    }

    /// One line per GPS gap: when, how long, why, and how the distance across it was counted.
    static func gaps(_ accounts: [GPSGapAccount], units: Units) -> [String] {
        guard !accounts.isEmpty else { return [] }
        var lines = [""]
        for gap in accounts {
            let when: String
            if let end = gap.endSeconds, let duration = gap.durationSeconds {
                when = "\(TimeText.clock(gap.startSeconds))–\(TimeText.clock(end)) (\(TimeText.clock(duration)), \(gap.reasonText))"
            } else {
                when = "\(TimeText.clock(gap.startSeconds))–end (\(gap.reasonText))"
            }
            lines.append("GPS gap   \(when): \(gap.estimateText(units))")
        }
        return lines
    }

    static func row(_ cells: [String], widths: [Int]) -> String {
        zip(cells, widths).map { cell, width in
            cell.count >= width ? cell : String(repeating: " ", count: width - cell.count) + cell
        }.joined(separator: " ")
    }

    public static func distance(_ metres: Double, _ units: Units) -> String {
        units == .metric ? CFormat.string("%.2f km", metres / 1000) : CFormat.string("%.2f mi", metres / 1609.344)
    }

    public static func pace(_ secondsPerKm: Double?, _ units: Units) -> String {
        guard let secondsPerKm else { return "-" }
        let value = units == .metric ? secondsPerKm : secondsPerKm * 1.609344
        return TimeText.clock(value) + (units == .metric ? " /km" : " /mi")
    }
}
