import Foundation
import RunWalkCore

/// Live pace against the true speed: steady phases, and the response to walk→run changes.
struct PaceFigures {
    var steadyReadings = 0
    var steadyWithin3Percent = 0
    /// Readings within 3 % of a fixed-τ EMA run over the true speed (what a 5 s EMA of a perfect speed would read).
    var steadyWithin3PercentOfSmoothed = 0
    var steps = 0
    /// Worst time to 90 % of a walk→run pace change, in time constants.
    var worstRiseTimeConstants: Double?
    /// Worst overshoot of the live speed past the new true speed, percent of the new speed.
    var worstOvershootPercent: Double?

    init(readings: [(Double, Double?)], truth: AccuracyBenchmark.Truth, timeConstant tau: Double) {
        guard truth.speed1Hz.count > 1 else { return }
        func trueSpeed(_ t: Double) -> Double {
            let i = max(0, min(truth.speed1Hz.count - 2, Int(t)))
            let f = max(0, min(1, t - Double(i)))
            return truth.speed1Hz[i] + (truth.speed1Hz[i + 1] - truth.speed1Hz[i]) * f
        }
        func meanSpeed(_ a: Double, _ b: Double) -> Double {
            var sum = 0.0, n = 0.0, t = a
            while t <= b { sum += trueSpeed(t); n += 1; t += 0.5 }
            return n > 0 ? sum / n : 0
        }
        // Steady: inside a phase, past the ramp and two time constants, away from stops.
        let settle = 4 + 2 * tau
        let quiet = truth.stationary.map { ($0.0 - 6, $0.1 + settle) }
        var smoothedTruth = PaceEMA(timeConstantSeconds: tau)
        for (t, pace) in readings {
            smoothedTruth.add(speedMetresPerSecond: trueSpeed(t), at: .milliseconds(Int64((t * 1000).rounded())))
            guard truth.phases.contains(where: { t >= $0.start + settle && t <= $0.end }),
                  !quiet.contains(where: { t >= $0.0 && t <= $0.1 }), t <= truth.durationSeconds else { continue }
            let v = trueSpeed(t)
            guard v >= 0.5 else { continue }
            steadyReadings += 1
            if let pace, abs(pace - 1000 / v) <= 0.03 * (1000 / v) { steadyWithin3Percent += 1 }
            if let pace, let s = smoothedTruth.paceSecondsPerKm, abs(pace - s) <= 0.03 * s { steadyWithin3PercentOfSmoothed += 1 }
        }
        // Steps: a phase markedly faster than the one before it.
        for k in truth.phases.indices.dropFirst() {
            let before = truth.phases[k - 1], after = truth.phases[k]
            let tb = after.start
            guard after.end - tb >= settle + 20, tb - before.start >= 10 else { continue }
            let vOld = meanSpeed(tb - 8, tb), vNew = meanSpeed(tb + settle, tb + settle + 20)
            guard vOld > 0.5, vNew > 1.3 * vOld else { continue }
            let window = readings.filter { $0.0 >= tb && $0.0 <= tb + 4 * tau + 10 }
            // "90 % of the new value": the live speed reaches 0.9 × the new true speed.
            guard let reach = window.first(where: { $0.1.map { 1000 / $0 >= 0.9 * vNew } ?? false }) else {
                worstRiseTimeConstants = .infinity
                continue
            }
            steps += 1
            worstRiseTimeConstants = max(worstRiseTimeConstants ?? 0, (reach.0 - tb) / tau)
            // Overshoot: how far the live speed rose above the fastest the runner had been so far
            // (the true speed itself wobbles by a few percent after the change).
            var fastestTrue = vOld, overshoot = 0.0
            for (t, pace) in window {
                fastestTrue = max(fastestTrue, trueSpeed(t))
                if let pace { overshoot = max(overshoot, (1000 / pace - fastestTrue) / vNew) }
            }
            worstOvershootPercent = max(worstOvershootPercent ?? 0, overshoot * 100)
        }
    }

    var steadyPercent: Double? { steadyReadings > 0 ? Double(steadyWithin3Percent) / Double(steadyReadings) * 100 : nil }
    var steadyPercentOfSmoothed: Double? {
        steadyReadings > 0 ? Double(steadyWithin3PercentOfSmoothed) / Double(steadyReadings) * 100 : nil
    }
}

extension AccuracyBenchmark {
    static func printTable(_ rows: [Row]) {
        func f(_ v: Double?, _ digits: Int) -> String {
            guard let v else { return "-" }
            return v.isFinite ? String(format: "%.\(digits)f", v) : "missed"
        }
        func err(_ ours: Double, _ truth: Double) -> String {
            truth > 0 ? f((ours - truth) / truth * 100, 2) : "-"
        }
        var lines = [
            "Ours: distance over the truth's duration, worst km-split time error, worst phase-boundary time error,",
            "distance accrued while truly standing; RTS = the offline smoother's figures;",
            "split pos m: worst distance from where the runner truly was when a live km split was announced to the split's true place;",
            "summary splits / smoothed_splits: worst error of the replay summary's live `splits` and of its `smoothed_splits`",
            "",
            "| track | truth m | ours m | err % | split pos m | split s | phase bound s | drift m | RTS m | RTS err % | RTS split s | summary splits s | summary smoothed_splits s |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in rows {
            lines.append("| \(r.name) | \(f(r.truth, 2)) | \(f(r.ours, 2)) | \(err(r.ours, r.truth)) | \(f(r.splitPositionError, 1)) | \(f(r.oursSplit, 2)) | "
                + "\(f(r.phaseEndError, 2)) | \(f(r.oursDrift, 2)) | \(f(r.smoothed, 2)) | "
                + "\(r.smoothed.map { err($0, r.truth) } ?? "-") | \(f(r.smoothedSplit, 2)) | "
                + "\(f(r.summarySplit, 2)) | \(f(r.summarySmoothedSplit, 2)) |")
        }
        lines += [
            "",
            "Against the baselines on the same fixes, same run: raw = sum of point-to-point distances;",
            "tracker = keep a point only when ≥ 5 m from the last kept one and HDOP ≤ 2",
            "",
            "| track | ours err % | raw m | raw err % | tracker m | tracker err % | ours split s | raw split s | tracker split s | ours drift m | raw drift m | tracker drift m |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in rows {
            let rawTotal = r.raw.distances.last ?? 0, trackerTotal = r.tracker.distances.last ?? 0
            lines.append("| \(r.name) | \(err(r.ours, r.truth)) | \(f(rawTotal, 1)) | \(err(rawTotal, r.truth)) | "
                + "\(f(trackerTotal, 1)) | \(err(trackerTotal, r.truth)) | \(f(r.oursSplit, 2)) | "
                + "\(f(r.raw.worstSplitError(r.truthSplits), 1)) | \(f(r.tracker.worstSplitError(r.truthSplits), 1)) | "
                + "\(f(r.oursDrift, 2)) | \(f(r.raw.drift(over: r.stationary), 1)) | \(f(r.tracker.drift(over: r.stationary), 1)) |")
        }
        lines += [
            "",
            "Live pace (noise-adaptive, reference τ = \(rows.first.map { f($0.tau, 0) } ?? "-") s): steady-phase readings within ±3 % of the true pace, and of a fixed-τ EMA run over the true speed;",
            "walk→run: time until the live speed reaches 90 % of the new true speed (in τ), and overshoot above the fastest true speed so far (% of the new speed)",
            "",
            "| track | steady readings | within ±3 % of true | within ±3 % of EMA(true) | walk→run steps | worst time to 90 % (τ) | worst overshoot % |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for r in rows {
            let p = r.pace
            lines.append("| \(r.name) | \(p.steadyReadings) | \(f(p.steadyPercent, 1)) | \(f(p.steadyPercentOfSmoothed, 1)) | \(p.steps) | \(f(p.worstRiseTimeConstants, 2)) | \(f(p.worstOvershootPercent, 1)) |")
        }
        print(lines.joined(separator: "\n"))
    }
}
