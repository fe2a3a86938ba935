import RunWalkCore

/// A point read from a GPX, TCX or FIT file, before it becomes a fix.
struct TrackFilePoint {
    var latitude: Double
    var longitude: Double
    var time: UTCTime
    /// Metres above mean sea level.
    var altitude: Double?
    /// The file's own speed, metres per second (kept only where it agrees with the positions).
    var speed: Double?
    var hdop: Double?
    /// The first point after a break (new segment or track, pause marker, invalid point).
    var startsSegment: Bool
    /// `line 12` or `byte 4096`, for warnings.
    var place: String
    /// The file's heart rate for the point, beats per minute, as written (checked when it becomes a fix).
    var heartRate: Double? = nil
    /// The beat-to-beat intervals that go with the heart rate (a FIT file's `hrv`), seconds.
    var rrIntervalsSeconds: [Double] = []
}

/// A track file's problems, each cause once, with how many points it touched and where it
/// was first seen; written when the file has been read, so the count is known.
struct TrackWarnings {
    private(set) var entries: [(message: String, count: Int, first: String?)] = []

    /// Counts one more occurrence of `message` (the first keeps its place).
    mutating func add(_ message: String, at place: String? = nil, count: Int = 1) {
        if let i = entries.firstIndex(where: { $0.message == message }) {
            entries[i].count += count
        } else {
            entries.append((message, count, place))
        }
    }

    /// One `warning:` line per cause.
    func lines(path: String) -> [String] {
        entries.map { entry in
            let at = entry.first.map { " (first at \($0))" } ?? ""
            let message = entry.message.replacingCount(entry.count)
            return "warning: \(path): \(message)\(at)"
        }
    }
}

extension String {
    /// The message with `#` replaced by the count.
    func replacingCount(_ count: Int) -> String {
        var out = ""
        for c in self { if c == "#" { out += String(count) } else { out.append(c) } }
        return out
    }
}

/// Turns points into fixes: drops points whose time does not advance, keeps the file's speed
/// only where it agrees with the positions, and marks segment breaks on the fixes.
struct TrackPointPipeline {
    /// Seconds of track over which a file's speeds are checked against the positions.
    static let windowSeconds: Int64 = 120
    /// The positions are compared every this many seconds at least (noise would lengthen a 1 s path).
    static let decimationSeconds: Int64 = 10
    /// Allowed disagreement: this fraction of the path, plus `slackMetres`.
    static let tolerance = 0.06
    static let slackMetres = 10.0

    /// Whether the file's speeds are checked against the positions (off only to compare a decoder's raw output).
    var checksSpeed = true
    private var window: [TrackFilePoint] = []
    private var lastTime: UTCTime?
    private var breakCarried = false
    private(set) var epochs = 0
    var warnings = TrackWarnings()

    /// The last point read, held until the next one shows whether its time is a glitch.
    private var held: TrackFilePoint?
    /// A segment break met (on a skipped point) after the held point.
    private var breakAfterHeld = false

    /// Adds one point; fixes that are ready go to `emit`.
    ///
    /// A point whose time jumps ahead of the point after it, while that one still follows the
    /// point before (a record with a clock glitch, a timestamp in the future), is the one
    /// skipped: otherwise every point after it would be, as not advancing past it.
    mutating func add(_ point: TrackFilePoint, _ emit: (Fix) throws -> Void) throws {
        guard let previous = held else {
            if let lastTime, point.time <= lastTime {
                skipNotAdvancing(point)
            } else {
                held = point
            }
            return
        }
        if point.time > previous.time {
            try accept(previous, emit)
            held = point
        } else if point.time < previous.time, lastTime.map({ point.time > $0 }) ?? true {
            warnings.add("# points skipped whose time jumps ahead of the points after them (a clock glitch, a time in the future)",
                         at: previous.place)
            var point = point
            if previous.startsSegment || breakAfterHeld { point.startsSegment = true }
            breakAfterHeld = false
            held = point
        } else {
            skipNotAdvancing(point)
        }
    }

    private mutating func skipNotAdvancing(_ point: TrackFilePoint) {
        warnings.add("# points skipped whose time does not advance past the point before (tracks overlapping in time? --track N reads one)",
                     at: point.place)
        if point.startsSegment {
            if held != nil { breakAfterHeld = true } else { breakCarried = true }
        }
    }

    private mutating func accept(_ point: TrackFilePoint, _ emit: (Fix) throws -> Void) throws {
        var point = point
        if breakCarried { point.startsSegment = true; breakCarried = false }
        if breakAfterHeld { breakCarried = true; breakAfterHeld = false }
        if epochs == 0 && window.isEmpty { point.startsSegment = false }
        lastTime = point.time
        if point.startsSegment, let first = window.first, first.time < point.time { try flush(emit) }
        window.append(point)
        if let first = window.first, point.time.milliseconds - first.time.milliseconds >= Self.windowSeconds * 1000 {
            try flush(emit)
        }
    }

    /// Emits what is held back.
    mutating func finish(_ emit: (Fix) throws -> Void) throws {
        if let point = held {
            held = nil
            try accept(point, emit)
        }
        try flush(emit)
    }

    private mutating func flush(_ emit: (Fix) throws -> Void) throws {
        guard !window.isEmpty else { return }
        let withSpeed = window.filter { $0.speed != nil }.count
        if checksSpeed, withSpeed > 0, !speedsAgree() {
            warnings.add("<speed> of # points dropped: it disagrees with the points' positions by more than 6 % (smoothed or derived by the app); the positions are kept",
                         at: window.first(where: { $0.speed != nil })?.place, count: withSpeed)
            for i in window.indices { window[i].speed = nil }
        }
        let limit = TelemetrySettings().maximumSpeed
        for point in window {
            if let speed = point.speed, speed > limit {
                // The telemetry takes no Doppler above a runner's limit; the positions still count.
                warnings.add("# points faster than \(Int(limit)) m/s (a bike, a vehicle?): their positions are used, their speed is not taken as the runner's",
                             at: point.place)
            }
            var fix = Fix(time: point.time)
            fix.latitude = point.latitude
            fix.longitude = point.longitude
            fix.altitudeMSL = point.altitude
            fix.speedMetresPerSecond = point.speed
            fix.hdop = point.hdop
            fix.mode = point.altitude == nil ? .twoD : .threeD
            fix.startsSegment = point.startsSegment
            if let value = point.heartRate {
                fix.heartRateBPM = HeartRateSample(seconds: 0, fileBPM: value)?.bpm
                if fix.heartRateBPM != nil { fix.heartRateRRSeconds = point.rrIntervalsSeconds }
                if fix.heartRateBPM == nil {
                    warnings.add("# heart rate values of 0, 255 or out of range read as no heart rate", at: point.place)
                }
            }
            epochs += 1
            try emit(fix)
        }
        window.removeAll(keepingCapacity: true)
    }

    /// Whether the distance the speeds integrate to matches the path of the positions
    /// (sampled every ten seconds or more) over the window.
    private func speedsAgree() -> Bool {
        var bySpeed = 0.0, path = 0.0
        var k = 0
        // Over each run of consecutive points that have a speed (a point without one is not judged).
        while k < window.count {
            guard window[k].speed != nil else { k += 1; continue }
            var anchor = window[k]
            var j = k + 1
            while j < window.count, let speed = window[j].speed, let before = window[j - 1].speed {
                let dt = Double(window[j].time.milliseconds - window[j - 1].time.milliseconds) / 1000
                bySpeed += dt * (speed + before) / 2
                let isLast = j + 1 >= window.count || window[j + 1].speed == nil
                if window[j].time.milliseconds - anchor.time.milliseconds >= Self.decimationSeconds * 1000 || isLast {
                    path += Geodesy.distance(latitude1: anchor.latitude, longitude1: anchor.longitude,
                                             latitude2: window[j].latitude, longitude2: window[j].longitude)
                    anchor = window[j]
                }
                j += 1
            }
            k = j
        }
        return abs(bySpeed - path) <= Self.tolerance * path + Self.slackMetres
    }
}
