import Foundation
import RunWalkCore
import RunWalkIO

/// `runwalk-bench accuracy [SAMPLE_TRACKS_DIR]`: replays every track that has a truth file
/// through the session pipeline and measures distance, splits, standing drift and pace
/// against the truth, beside two baselines computed from the same fixes in the same run.
enum AccuracyBenchmark {
    struct Truth {
        var name: String
        var workout: String
        var durationSeconds: Double
        var distanceMetres: Double
        var splitsKm: [Double]
        var stationary: [(Double, Double)]
        var speed1Hz: [Double]
        var phases: [(kind: String, start: Double, end: Double)]
        var dropouts: [(Double, Double)]

        /// Standing windows, each starting after any dropout it begins in (distance bridged
        /// over a dropout lands on its first fix, and is not drift).
        var stationaryOutsideDropouts: [(Double, Double)] {
            stationary.map { w in
                let start = dropouts.first { w.0 >= $0.0 && w.0 < $0.1 }.map { $0.1 } ?? w.0
                return (min(start, w.1), w.1)
            }
        }
    }

    /// A cumulative distance against time, for splits and drift.
    struct Series {
        var times: [Double] = []
        var distances: [Double] = []

        mutating func add(_ t: Double, _ d: Double) { times.append(t); distances.append(d) }

        func value(at t: Double) -> Double {
            guard let first = times.first, let last = times.last else { return 0 }
            if t <= first { return distances[0] }
            if t >= last { return distances[distances.count - 1] }
            var lo = 0, hi = times.count - 1
            while hi - lo > 1 { let mid = (lo + hi) / 2; if times[mid] <= t { lo = mid } else { hi = mid } }
            let f = (t - times[lo]) / max(1e-9, times[hi] - times[lo])
            return distances[lo] + (distances[hi] - distances[lo]) * f
        }

        func crossing(_ target: Double) -> Double? {
            guard let i = distances.firstIndex(where: { $0 >= target }) else { return nil }
            guard i > 0 else { return times[0] }
            let d0 = distances[i - 1], d1 = distances[i]
            return times[i - 1] + (times[i] - times[i - 1]) * (d1 > d0 ? (target - d0) / (d1 - d0) : 0)
        }

        func drift(over windows: [(Double, Double)]) -> Double {
            windows.reduce(0) { $0 + value(at: $1.1) - value(at: $1.0) }
        }

        func worstSplitError(_ truth: [Double]) -> Double? {
            var worst: Double?
            for (i, t) in truth.enumerated() {
                guard let ours = crossing(Double(i + 1) * 1000) else { return .infinity }
                worst = max(worst ?? 0, abs(ours - t))
            }
            return worst
        }
    }

    struct Row {
        var name: String
        var truth: Double
        var ours: Double
        var smoothed: Double?
        var smoothedSplit: Double?
        var oursSplit: Double?
        /// Worst difference of a phase boundary from the truth's, seconds (distance phases).
        var phaseEndError: Double?
        var oursDrift: Double
        var raw: Series
        var tracker: Series
        var pace: PaceFigures
        var truthSplits: [Double]
        var stationary: [(Double, Double)]
        var tau: Double
        /// Worst error of the summary's live `splits` and of its `smoothed_splits`, seconds.
        var summarySplit: Double?
        var summarySmoothedSplit: Double?
        /// Worst distance, metres, between where the runner truly was when a live split was
        /// announced (the session's clock at the fix that completed it, or the predicted instant
        /// it was said at between two fixes) and the split's true
        /// place; nil without splits, infinite when one was never announced.
        var splitPositionError: Double?
    }

    /// The true distance run against time: the truth's 1 Hz speed integrated (trapezoids).
    static func trueDistanceSeries(_ truth: Truth) -> Series {
        var series = Series()
        var total = 0.0
        for (i, v) in truth.speed1Hz.enumerated() {
            if i > 0 { total += (truth.speed1Hz[i - 1] + v) / 2 }
            series.add(Double(i), total)
        }
        return series
    }

    /// The worst of |true distance when split k was announced − true distance at split k's
    /// true time| over the truth's splits (the integration's own error cancels out).
    static func splitPositionError(announced: [Double], truth: Truth) -> Double? {
        guard !truth.splitsKm.isEmpty, truth.speed1Hz.count > 1 else { return nil }
        guard announced.count >= truth.splitsKm.count else { return .infinity }
        let distance = trueDistanceSeries(truth)
        return zip(announced, truth.splitsKm).map { abs(distance.value(at: $0) - distance.value(at: $1)) }.max()
    }

    /// The worst difference of summary splits from the truth's (nil when there are none to compare).
    static func worstError(_ splits: [Summary.SplitEntry]?, _ truth: [Double]) -> Double? {
        guard let splits, !truth.isEmpty else { return nil }
        guard splits.count >= truth.count else { return .infinity }
        return zip(splits, truth).map { abs($0.elapsedSeconds - $1) }.max()
    }

    static func run(_ arguments: ArraySlice<String>) throws {
        if arguments.first == "--trace", let track = arguments.dropFirst().first {
            return try trace(track)
        }
        var arguments = arguments
        let ggaOnly = arguments.first == "--gga-only"
        if ggaOnly { arguments = arguments.dropFirst() }
        var folder = arguments.first ?? "SampleTracks"
        if ggaOnly { folder = try ggaOnlyCopies(of: folder) }
        defer { if ggaOnly { try? FileManager.default.removeItem(atPath: folder) } }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".truth.json") }.sorted()
        guard !names.isEmpty else { throw BenchError.usage("no *.truth.json in \(folder)") }
        var rows: [Row] = []
        for name in names {
            let truth = try loadTruth(folder + "/" + name)
            rows.append(try measure(truth, path: folder + "/" + truth.name))
        }
        printTable(rows)
    }

    /// Sentences a receiver without Doppler speed does not send.
    static let dopplerSentences: Set<String> = ["RMC", "VTG", "GSA", "GSV", "GST"]

    /// Copies of the folder's tracks (and truth files) with every sentence but GGA's kind left
    /// out: a receiver without Doppler speed (`--gga-only`). Returns the copies' folder.
    static func ggaOnlyCopies(of folder: String) throws -> String {
        let target = NSTemporaryDirectory() + "runwalk-bench-gga-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let source = folder + "/" + name, copy = target + "/" + name
            try? FileManager.default.removeItem(atPath: copy)
            if name.hasSuffix(".truth.json") {
                try FileManager.default.copyItem(atPath: source, toPath: copy)
            } else if name.hasSuffix(".nmea") {
                let text = try String(contentsOfFile: source, encoding: .utf8)
                // `\.isNewline`: the tracks end their lines with CR LF, one Character to Swift.
                let kept = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).filter { line in
                    !(line.hasPrefix("$") && line.count > 6 && dopplerSentences.contains(String(line.dropFirst(3).prefix(3))))
                }
                try kept.joined(separator: "\n").write(toFile: copy, atomically: true, encoding: .utf8)
            }
        }
        return target
    }

    static func measure(_ truth: Truth, path: String) throws -> Row {
        let workout = try Workout(parsing: truth.workout)
        var options = SessionOptions()
        options.enabledCues = []
        let environment = ProcessInfo.processInfo.environment
        // RUNWALK_SPLIT_AT_FIX=1: every split said at the fix that completes it (before 2026-11-28).
        options.predictsSplitCrossings = environment["RUNWALK_SPLIT_AT_FIX"] == nil
        tune(&options.telemetry)
        var paceReadings: [(Double, Double?)] = []
        // When each live split was said: at the fix that completed it (the clock of that fix's
        // telemetry, which comes just before its splits), or at its own time when it was predicted
        // between two fixes (said at that instant, after the last fix's telemetry).
        var clock = 0.0
        var announced: [Double] = []
        let result = try BenchReplay.run(path: path, workout: workout, options: options) { event in
            switch event {
            case .telemetry(let update, let at):
                clock = at
                paceReadings.append((at, update.paceSecondsPerKm))
            case .split(let split):
                // Splits count from the workout's start, the loop's clock from before the get-ready.
                let atCrossing = environment["RUNWALK_SPLIT_AT_CROSSING"] != nil
                announced.append(atCrossing ? split.elapsedSeconds : max(clock - options.getReady.seconds, split.elapsedSeconds))
            default: break
            }
        }
        let (ours, raw, tracker) = try replayFixes(path: path, durationSeconds: truth.durationSeconds, settings: options.telemetry)
        return Row(name: truth.name, truth: truth.distanceMetres, ours: ours.series.value(at: truth.durationSeconds),
                   smoothed: ours.smoothed, smoothedSplit: ours.smoothedSeries.worstSplitError(truth.splitsKm),
                   oursSplit: ours.series.worstSplitError(truth.splitsKm),
                   phaseEndError: zip(result.summary.phases, truth.phases).map { abs($0.startSeconds - $1.start) }.max(),
                   oursDrift: ours.series.drift(over: truth.stationaryOutsideDropouts), raw: raw, tracker: tracker,
                   pace: PaceFigures(readings: paceReadings, truth: truth,
                                     timeConstant: options.telemetry.paceTimeConstantSeconds),
                   truthSplits: truth.splitsKm, stationary: truth.stationaryOutsideDropouts,
                   tau: options.telemetry.paceTimeConstantSeconds,
                   summarySplit: worstError(result.summary.splits, truth.splitsKm),
                   summarySmoothedSplit: worstError(result.summary.smoothedSplits, truth.splitsKm),
                   splitPositionError: splitPositionError(announced: announced, truth: truth))
    }

    /// Settings overrides for tuning experiments: RUNWALK_TUNE="q=0.6,tc=4,...".
    static func tune(_ settings: inout TelemetrySettings) {
        let spec = ProcessInfo.processInfo.environment["RUNWALK_TUNE"] ?? ""
        for pair in spec.split(separator: ",") {
            let kv = pair.split(separator: "=")
            guard kv.count == 2, let v = Double(kv[1]) else { continue }
            switch kv[0] {
            case "tau": settings.paceTimeConstantSeconds = v
            case "kp": settings.positionProgressWithoutDoppler = v
            case "step": settings.positionStepMetresWithoutDoppler = v > 0 ? v : .infinity
            case "stepmax": settings.positionStepMaximumMetresWithoutDoppler = v
            case "sw": settings.standingWindowSecondsWithoutDoppler = v
            case "sr": settings.standingRadiusMetresWithoutDoppler = v
            case "mr": settings.movingRadiusMetresWithoutDoppler = v
            case "smax": settings.standingWindowMaximumSpeed = v
            case "lb": settings.standingLookbackSecondsWithoutDoppler = v
            case "pref": settings.paceReferenceNoiseFraction = v
            case "q": settings.accelerationSpectralDensity = v
            case "tc": settings.positionCorrelationSeconds = v
            case "uere": settings.userRangeErrorMetres = v
            case "course": settings.courseSigmaFloorDegrees = v
            case "dop": settings.dopplerSpeedSigma = v
            case "leap": settings.dopplerLeapMetresPerSecond = v
            case "bias": settings.smootherModelsPositionBias = v > 0
            case "btau": settings.positionBiasCorrelationSeconds = v
            case "bfrac": settings.positionBiasVarianceFraction = v
            case "wtc": settings.positionWhiteCorrelationSeconds = v
            default: break
            }
        }
    }


    /// Prints time, our distance, the true distance and the speeds of one track, per fix.
    static func trace(_ truthPath: String) throws {
        let truth = try loadTruth(truthPath)
        let folder = (truthPath as NSString).deletingLastPathComponent
        var options = SessionOptions()
        options.enabledCues = []
        tune(&options.telemetry)
        var trueDistance = [0.0]
        for i in truth.speed1Hz.indices.dropFirst() { trueDistance.append(trueDistance[i - 1] + (truth.speed1Hz[i - 1] + truth.speed1Hz[i]) / 2) }
        _ = try BenchReplay.run(path: folder + "/" + truth.name, workout: try Workout(parsing: truth.workout), options: options) { event in
            guard case .telemetry(let u, let t) = event else { return }
            let i = min(trueDistance.count - 1, Int(t))
            print(String(format: "%.1f %.2f %.2f %.3f %.3f %d %@ %.1f", t, u.distanceMetres, trueDistance[i], u.speedMetresPerSecond ?? -1,
                         truth.speed1Hz[min(i, truth.speed1Hz.count - 1)], u.stationary ? 1 : 0, u.accepted ? "a" : "r",
                         u.paceSecondsPerKm ?? -1))
        }
    }

    /// Our telemetry over every fix of the track (past the workout's end, up to the truth's
    /// duration), the raw point-to-point sum, and a typical tracker: keep a point only when it
    /// is at least 5 m from the last kept one and its HDOP is at most 2.
    static func replayFixes(path: String, durationSeconds: Double, settings: TelemetrySettings)
        throws -> ((series: Series, smoothed: Double?, smoothedSeries: Series), Series, Series) {
        var reader = NMEAFileReader(path: path)
        var telemetry = Telemetry(settings: settings)
        var ours = Series(), raw = Series(), tracker = Series()
        var origin: UTCTime?
        var last: (Double, Double)?, kept: (Double, Double)?
        var rawTotal = 0.0, trackerTotal = 0.0
        try reader.read { fix in
            let o = origin ?? fix.time
            origin = o
            let t = Double(fix.time.milliseconds - o.milliseconds) / 1000
            guard t <= durationSeconds + 1e-6 else { return }
            ours.add(t, telemetry.ingest(fix).distanceMetres)
            guard fix.hasPosition, let lat = fix.latitude, let lon = fix.longitude else { return }
            if let last { rawTotal += Geodesy.distance(latitude1: last.0, longitude1: last.1, latitude2: lat, longitude2: lon) }
            last = (lat, lon)
            raw.add(t, rawTotal)
            if (fix.hdop ?? 99) <= 2 {
                if let k = kept {
                    let step = Geodesy.distance(latitude1: k.0, longitude1: k.1, latitude2: lat, longitude2: lon)
                    if step >= 5 { trackerTotal += step; kept = (lat, lon) }
                } else {
                    kept = (lat, lon)
                }
            }
            tracker.add(t, trackerTotal)
        }
        var smoothedSeries = Series()
        for (t, d) in telemetry.smoothedDistanceSeries() { smoothedSeries.add(t, d) }
        if ProcessInfo.processInfo.environment["RUNWALK_DEBUG_SERIES"] == "all" {
            for (t, d) in zip(smoothedSeries.times, smoothedSeries.distances) { print("A", path, t, d, ours.value(at: t)) }
        }
        if ProcessInfo.processInfo.environment["RUNWALK_DEBUG_SERIES"] == path {
            for (t, d) in zip(smoothedSeries.times, smoothedSeries.distances) { print("S", t, d, ours.value(at: t)) }
        }
        var smoothed: Double?
        if let o = origin {
            smoothed = telemetry.smoothedDistanceMetres(from: o, to: o.adding(.milliseconds(Int64((durationSeconds * 1000).rounded()))))
        }
        return ((ours, smoothed, smoothedSeries), raw, tracker)
    }

    static func loadTruth(_ path: String) throws -> Truth {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let name = json["track"] as? String, let workout = json["workout"] as? String,
              let duration = json["duration_s"] as? Double, let distance = json["distance_m"] as? Double
        else { throw BenchError("\(path): not a truth file (needs track, workout, duration_s, distance_m)") }
        let splits = (json["splits_km"] as? [[String: Any]] ?? []).compactMap { $0["elapsed_s"] as? Double }
        let stationary = (json["stationary"] as? [[String: Any]] ?? []).compactMap { w -> (Double, Double)? in
            guard let a = w["start_s"] as? Double, let b = w["end_s"] as? Double else { return nil }
            return (a, b)
        }
        let phases = (json["phases"] as? [[String: Any]] ?? []).compactMap { p -> (kind: String, start: Double, end: Double)? in
            guard let k = p["kind"] as? String, let a = p["start_s"] as? Double, let b = p["end_s"] as? Double else { return nil }
            return (k, a, b)
        }
        let receiver = json["receiver"] as? [String: Any] ?? [:]
        let dropouts = (receiver["dropouts"] as? [[String: Any]] ?? []).compactMap { w -> (Double, Double)? in
            guard let a = w["start_s"] as? Double, let b = w["end_s"] as? Double else { return nil }
            return (a, b)
        }
        let speeds = (json["speed_1hz_mps"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
        return Truth(name: name, workout: workout, durationSeconds: duration, distanceMetres: distance,
                     splitsKm: splits, stationary: stationary, speed1Hz: speeds, phases: phases,
                     dropouts: dropouts)
    }
}
