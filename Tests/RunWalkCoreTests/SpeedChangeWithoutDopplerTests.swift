import Testing
@testable import RunWalkCore

/// Without Doppler the live distance follows a change of speed (issue 30, item 6): a
/// constant-velocity filter keeps the running speed ~3.5 s into a walk, so the distance jumps
/// 5–6 m ahead of the runner at every run→walk change and as far behind at every walk→run one,
/// and a km split said just after a change is off by that much.
@Suite("Telemetry: speed changes without Doppler")
struct SpeedChangeWithoutDopplerTests {
    /// 5 min at 1.7 m/s, then 8 × (90 s run at 3.1 m/s, 60 s walk at 1.4 m/s), 2 s ramps.
    static let warmup = 300.0, run = 90.0, walk = 60.0, ramp = 2.0

    /// The times speed changes: (time, speed before, speed after).
    static var changes: [(time: Double, from: Double, to: Double)] {
        var list: [(Double, Double, Double)] = [(warmup, 1.7, 3.1)]
        var t = warmup
        for i in 0..<8 {
            list.append((t + run, 3.1, 1.4))
            t += run + walk
            if i < 7 { list.append((t, 1.4, 3.1)) }
        }
        return list
    }

    static func speed(_ t: Double) -> Double {
        var v = 1.7
        for c in changes {
            if t >= c.time + ramp { v = c.to } else if t > c.time { v = c.from + (c.to - c.from) * (t - c.time) / ramp }
        }
        return v
    }

    /// A GGA-only receiver on a 400 m track's bends (radius 36.5 m would be all bend; 60 m is
    /// between), the sample tracks' open-sky noise: 1.5 m correlated over a minute, 0.3 m jitter.
    static func track(seed: UInt64) -> TestTrack {
        var track = TestTrack()
        track.seconds = warmup + 8 * (run + walk) - walk + 30
        track.speed = speed
        track.radiusMetres = 60
        track.doppler = false
        track.seed = seed
        return track
    }

    /// The live distance less the true one at every whole second.
    static func errors(_ track: TestTrack, settings: TelemetrySettings) -> [Double] {
        var telemetry = Telemetry(settings: settings)
        var truth = 0.0
        return track.fixes().enumerated().map { j, fix in
            if j > 0 { truth += (speed(Double(j - 1)) + speed(Double(j))) / 2 }
            return telemetry.ingest(fix).distanceMetres - truth
        }
    }

    static var filteredOnly: TelemetrySettings {
        var settings = TelemetrySettings()
        settings.positionProgressWithoutDoppler = 0
        return settings
    }

    /// How the distance's error changed over each change of speed: from 3 s before it to 12 s
    /// after (a split said just after the change would be off by that), with the change's sign.
    static func steps(_ errors: [Double]) -> [(slowing: Bool, metres: Double)] {
        changes.map { c in (c.to < c.from, errors[Int(c.time) + 12] - errors[Int(c.time) - 3]) }
    }

    /// The mean step over run→walk changes and over walk→run changes, and the largest.
    static func figures(_ track: TestTrack, settings: TelemetrySettings) -> (slowing: Double, speeding: Double, worst: Double) {
        let steps = Self.steps(Self.errors(track, settings: settings))
        let slowing = steps.filter(\.slowing).map(\.metres), speeding = steps.filter { !$0.slowing }.map(\.metres)
        return (slowing.reduce(0, +) / Double(slowing.count), speeding.reduce(0, +) / Double(speeding.count),
                steps.map { abs($0.metres) }.max() ?? 0)
    }

    /// On the filtered speed alone (the old code) the mean steps are about +5.5 m (run→walk) and
    /// −5 m (walk→run), the largest 7–8.5 m, for each of these seeds.
    @Test("the distance's error does not step at a run↔walk change", arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func followsChanges(seed: UInt64) {
        let track = Self.track(seed: seed)
        let now = Self.figures(track, settings: TelemetrySettings())
        let before = Self.figures(track, settings: Self.filteredOnly)
        let said = "seed \(seed): mean steps \(now.slowing) m run→walk, \(now.speeding) m walk→run, largest \(now.worst) m "
            + "(filtered speed alone: \(before.slowing), \(before.speeding), \(before.worst))"
        #expect(abs(now.slowing) <= 1.5, "\(said)")
        #expect(abs(now.speeding) <= 1.5, "\(said)")
        #expect(now.worst <= 4, "\(said)")
    }
}
