import Testing
@testable import RunWalkCore

@Suite("Telemetry")
struct TelemetryTests {
    @Test("standing still for 10 minutes accrues (almost) nothing", arguments: [true, false])
    func standingStill(doppler: Bool) {
        // Given a receiver lying still, its position wandering by metres
        var track = TestTrack()
        track.speed = { _ in 0 }
        track.correlatedSigmaMetres = 2.5
        track.correlationSeconds = 75
        track.jitterMetres = 0.35
        track.doppler = doppler
        // When ten minutes of fixes go through the telemetry
        let distance = TestTrack.distance(of: track.fixes())
        // Then (almost) no distance accrues: ≤ 1 m with Doppler, < 5 m from positions alone
        #expect(distance <= (doppler ? 1 : 5), "accrued \(distance) m standing still")
    }

    @Test("a single 50 m outlier changes the distance by less than 1 m", arguments: [true, false])
    func singleOutlier(doppler: Bool) {
        var track = TestTrack()
        track.doppler = doppler
        let clean = TestTrack.distance(of: track.fixes())
        track.outliers = [300: (35.4, -35.4)]
        let fixes = track.fixes()
        var telemetry = Telemetry()
        var rejected = 0
        for fix in fixes where !telemetry.ingest(fix).accepted { rejected += 1 }
        #expect(abs(telemetry.distanceMetres - clean) < 1, "outlier moved the distance by \(telemetry.distanceMetres - clean) m")
        #expect(rejected == 1, "the outlier fix is gated")
    }

    @Test("outliers for a few fixes in a row are gated, and the filter recovers")
    func outlierBurst() {
        var track = TestTrack()
        let clean = TestTrack.distance(of: track.fixes())
        track.outliers = [200: (60, 0), 201: (62, 3), 202: (61, 1), 400: (-30, 40)]
        #expect(abs(TestTrack.distance(of: track.fixes()) - clean) < 2)
    }

    @Test("a 15 s dropout at steady speed neither loses nor invents more than 2 % of the gap", arguments: [true, false])
    func dropout(doppler: Bool) {
        // A receiver with a typical 0.05 m/s Doppler accuracy: with 0.1 m/s, the noise of the
        // clean run's own 15 s is already about half of the 2 % allowed.
        var track = TestTrack()
        track.doppler = doppler
        track.dopplerSigma = 0.05
        track.radiusMetres = 2000
        let gapDistance = track.trueDistance(to: 315) - track.trueDistance(to: 300)
        let clean = TestTrack.distance(of: track.fixes())
        track.dropout = (300, 315)
        let gapped = TestTrack.distance(of: track.fixes())
        #expect(abs(gapped - clean) <= 0.02 * gapDistance, "gap of \(gapDistance) m: \(gapped - clean) m off")
    }

    @Test("1 Hz and 10 Hz versions of the same run agree within 0.3 %", arguments: [true, false])
    func rates(doppler: Bool) {
        var slow = TestTrack()
        slow.doppler = doppler
        slow.seconds = 900
        slow.speed = { t in t.truncatingRemainder(dividingBy: 150) < 90 ? 3.2 : 1.5 }
        var fast = slow
        fast.rateHz = 10
        fast.seed = 2
        let a = TestTrack.distance(of: slow.fixes()), b = TestTrack.distance(of: fast.fixes())
        #expect(abs(a - b) / a <= 0.003, "1 Hz \(a) m, 10 Hz \(b) m")
        let truth = slow.trueDistance(to: slow.seconds)
        #expect(abs(a - truth) / truth <= 0.005, "1 Hz \(a) m against \(truth) m")
    }

    @Test("distance on a curved run is within 0.5 % of the truth", arguments: [(true, 40.0), (false, 40.0), (true, 500.0), (false, 500.0)])
    func curvedRun(doppler: Bool, radius: Double) {
        var track = TestTrack()
        track.doppler = doppler
        track.radiusMetres = radius
        let truth = track.trueDistance(to: track.seconds)
        let distance = TestTrack.distance(of: track.fixes())
        #expect(abs(distance - truth) / truth <= 0.005, "\(distance) m against \(truth) m")
    }

    @Test("live pace at steady speed stays within 3 % of the true pace")
    func steadyPace() {
        var track = TestTrack()
        track.speed = { _ in 3.0 }
        let fixes = track.fixes()
        let start = fixes[0].time
        var telemetry = Telemetry()
        var readings: [Double] = []
        for fix in fixes {
            let update = telemetry.ingest(fix)
            if update.time.since(start) > .seconds(30), let pace = update.paceSecondsPerKm { readings.append(pace) }
        }
        let within = readings.filter { abs($0 - 1000 / 3.0) <= 0.03 * 1000 / 3.0 }.count
        #expect(readings.count > 500)
        #expect(Double(within) >= 0.95 * Double(readings.count), "\(within) of \(readings.count)")
    }

    @Test("no distance and no pace before the first fix with a position")
    func noPosition() {
        var telemetry = Telemetry()
        let update = telemetry.ingest(Fix(time: UTCTime(milliseconds: 0)))
        #expect(!update.accepted)
        #expect(update.distanceMetres == 0)
        #expect(update.paceSecondsPerKm == nil)
    }

    @Test("the RTS-smoothed distance agrees with the live one on a clean run")
    func smoothed() throws {
        let track = TestTrack()
        let fixes = track.fixes()
        var telemetry = Telemetry()
        for fix in fixes { _ = telemetry.ingest(fix) }
        let first = try #require(fixes.first), last = try #require(fixes.last)
        let smoothed = try #require(telemetry.smoothedDistanceMetres(from: first.time, to: last.time))
        let truth = track.trueDistance(to: track.seconds)
        #expect(abs(smoothed - truth) / truth <= 0.005, "smoothed \(smoothed) m against \(truth) m")
    }
}

@Suite("Telemetry in a session")
struct TelemetrySessionTests {
    @Test("a wrong first fix is outgrown: gated fixes that agree with each other relock the filter", arguments: [true, false])
    func relock(doppler: Bool) {
        var track = TestTrack()
        track.doppler = doppler
        let clean = TestTrack.distance(of: track.fixes())
        track.outliers = [0: (80, 0)]
        #expect(abs(TestTrack.distance(of: track.fixes()) - clean) < 5)
    }

    @Test("the summary carries the smoothed distance beside the live one")
    func summary() throws {
        let track = TestTrack()
        var runner = SessionRunner(workout: try Workout(parsing: "5m run, 5m walk"))
        let fixes = track.fixes()
        let start = try #require(fixes.first).time
        _ = runner.start(at: .zero, utc: start)
        for fix in fixes { _ = runner.ingest(fix, at: fix.time.since(start)) }
        let summary = runner.summary(linesBad: 0)
        let smoothed = try #require(summary.smoothedDistanceMetres)
        #expect(abs(smoothed - summary.distanceMetres) / summary.distanceMetres < 0.005)
        #expect(abs(summary.distanceMetres - track.trueDistance(to: 600)) / 1800 < 0.005)
    }

    @Test("the summary carries smoothed splits beside the live ones, at the true crossing time")
    func smoothedSplits() throws {
        var track = TestTrack()
        track.seconds = 800
        var runner = SessionRunner(workout: try Workout(parsing: "5m run, 5m walk"))
        let fixes = track.fixes()
        let start = try #require(fixes.first).time
        _ = runner.start(at: .zero, utc: start)
        for fix in fixes { _ = runner.ingest(fix, at: fix.time.since(start)) }
        let summary = runner.summary(linesBad: 0)
        let smoothed = try #require(summary.smoothedSplits)
        // 3 m/s for 600 s of workout: 1800 m, one km split at 333.3 s.
        #expect(smoothed.count == 1)
        #expect(summary.splits.count == 1)
        let split = try #require(smoothed.first)
        #expect(split.index == 1 && split.distanceMetres == 1000)
        #expect(abs(split.elapsedSeconds - 1000.0 / 3) < 1, "smoothed split at \(split.elapsedSeconds) s")
        #expect(split.splitSeconds == split.elapsedSeconds)
    }

    @Test("without smoother history the summary has no smoothed splits")
    func noHistory() throws {
        var options = SessionOptions()
        options.telemetry.keepsSmootherHistory = false
        var runner = SessionRunner(workout: try Workout(parsing: "10m run"), options: options)
        let fixes = TestTrack().fixes()
        let start = try #require(fixes.first).time
        _ = runner.start(at: .zero, utc: start)
        for fix in fixes { _ = runner.ingest(fix, at: fix.time.since(start)) }
        let summary = runner.summary(linesBad: 0)
        #expect(summary.smoothedSplits == nil)
        #expect(summary.smoothedDistanceMetres == nil)
        #expect(summary.splits.count == 1)
    }
}
