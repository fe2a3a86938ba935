import Testing
@testable import RunWalkCore

/// Standing still without Doppler (a GGA-only receiver): no distance accrues while standing
/// (DESIGN.md's filter rule), though the wandering position error keeps the filtered speed up.
@Suite("Telemetry: standing without Doppler")
struct StandingWithoutDopplerTests {
    /// Runs at 2.7 m/s with three 60 s stops (traffic lights), 3 s ramps either side.
    static let stops: [(start: Double, end: Double)] = [(120, 180), (300, 360), (480, 540)]

    static func speed(_ t: Double) -> Double {
        let ramp = 3.0, run = 2.7
        for stop in stops {
            if t >= stop.start && t <= stop.end { return 0 }
            if t > stop.start - ramp && t < stop.start { return run * (stop.start - t) / ramp }
            if t > stop.end && t < stop.end + ramp { return run * (t - stop.end) / ramp }
        }
        return run
    }

    /// A city receiver without Doppler: 4.5 m of correlated error over a minute, 0.8 m jitter.
    static func track(seed: UInt64, speed: @escaping @Sendable (Double) -> Double = Self.speed) -> TestTrack {
        var track = TestTrack()
        track.seconds = 660
        track.speed = speed
        track.radiusMetres = 5000
        track.correlatedSigmaMetres = 4.5
        track.jitterMetres = 0.8
        track.hdop = 1.0
        track.doppler = false
        track.seed = seed
        return track
    }

    /// The settings of the filter before the positions' window: standing on the filtered speed only.
    static var speedOnly: TelemetrySettings {
        var settings = TelemetrySettings()
        settings.standingWindowSecondsWithoutDoppler = .infinity
        return settings
    }

    /// Distance accrued over each stop from 25 s in to its end (the window takes 15 s to fill),
    /// and the final distance.
    static func accrued(_ track: TestTrack, settings: TelemetrySettings) throws -> (perStop: [Double], total: Double) {
        var telemetry = Telemetry(settings: settings)
        var distanceAt: [Int: Double] = [:]
        for (j, fix) in track.fixes().enumerated() { distanceAt[j] = telemetry.ingest(fix).distanceMetres }
        let perStop = try stops.map { stop in
            try #require(distanceAt[Int(stop.end)]) - (try #require(distanceAt[Int(stop.start) + 25]))
        }
        return (perStop, telemetry.distanceMetres)
    }

    @Test("no distance accrues while standing at a light, whatever the position error does",
          arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func standingAccruesNothing(seed: UInt64) throws {
        let track = Self.track(seed: seed)
        let truth = track.trueDistance(to: track.seconds)
        let ours = try Self.accrued(track, settings: TelemetrySettings())
        let before = try Self.accrued(track, settings: Self.speedOnly)
        for (stop, (metres, speedOnly)) in zip(Self.stops, zip(ours.perStop, before.perStop)) {
            #expect(metres <= 5, "seed \(seed), stop at \(stop.start) s: \(metres) m accrued while standing (speed only: \(speedOnly) m)")
        }
        // On the filtered speed alone 5–12 m accrue over the three stops of each of these seeds.
        #expect(ours.perStop.reduce(0, +) <= 3, "seed \(seed): \(ours.perStop) m accrued while standing (speed only: \(before.perStop))")
        #expect(abs(ours.total - truth) / truth <= 0.03, "seed \(seed): \(ours.total) m against \(truth) m")
    }

    @Test("walking without Doppler is hardly taken for standing more than on the speed alone",
          arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func walkingIsNotStanding(seed: UInt64) {
        let track = Self.track(seed: seed, speed: { _ in 1.35 })
        func run(_ settings: TelemetrySettings) -> (standing: Int, distance: Double) {
            var telemetry = Telemetry(settings: settings)
            var standing = 0
            // Past the first 30 s (a filter started without Doppler starts standing).
            for (j, fix) in track.fixes().enumerated() where telemetry.ingest(fix).stationary && j > 30 { standing += 1 }
            return (standing, telemetry.distanceMetres)
        }
        let ours = run(TelemetrySettings()), before = run(Self.speedOnly)
        // A few fixes more may be taken for standing (the window's radius against 4.5 m of wander).
        #expect(ours.standing <= before.standing + 5, "seed \(seed): \(ours.standing) fixes standing, \(before.standing) on the speed alone")
        #expect(abs(ours.distance - before.distance) / before.distance <= 0.005,
                "seed \(seed): \(ours.distance) m, \(before.distance) m on the speed alone")
    }
}
