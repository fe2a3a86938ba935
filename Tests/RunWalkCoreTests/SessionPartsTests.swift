import Testing
@testable import RunWalkCore

@Suite("MovingTimeCounter")
struct MovingTimeCounterTests {
    @Test("counts steps that end at a used fix, while counting, at or above the threshold, at most 10 s each")
    func counts() {
        var counter = MovingTimeCounter(thresholdMetresPerSecond: 0.5)
        counter.add(atSeconds: 0, used: true, speedMetresPerSecond: 3, counting: true)      // first: nothing before it
        counter.add(atSeconds: 1, used: true, speedMetresPerSecond: 3, counting: true)      // +1
        counter.add(atSeconds: 2, used: true, speedMetresPerSecond: 0.4, counting: true)    // too slow
        counter.add(atSeconds: 3, used: false, speedMetresPerSecond: 3, counting: true)     // not used: not even timed from
        counter.add(atSeconds: 4, used: true, speedMetresPerSecond: 3, counting: true)      // +2 (from 2)
        counter.add(atSeconds: 5, used: true, speedMetresPerSecond: 3, counting: false)     // paused: timed from, not counted
        counter.add(atSeconds: 6, used: true, speedMetresPerSecond: 3, counting: true)      // +1 (from 5)
        counter.add(atSeconds: 30, used: true, speedMetresPerSecond: 3, counting: true)     // +10 (capped)
        counter.add(atSeconds: 31, used: true, speedMetresPerSecond: nil, counting: true)   // no speed: standing
        #expect(counter.seconds == 14, "1 + 2 + 1 + 10")
    }
}

@Suite("SummaryBuilder")
struct SummaryBuilderTests {
    @Test("totals, elapsed and paused time, paces and times from the origin, rounded once")
    func builds() {
        var builder = SummaryBuilder(workoutSpec: "1m run, 1m walk", startUTC: nil, units: .metric, outcome: .completed)
        builder.originSeconds = 3
        builder.phases = [
            .init(index: 0, kind: .run, planned: .init(durationSeconds: 60, distanceMetres: nil), startSeconds: 3,
                  endSeconds: 93, activeSeconds: 60, distanceMetres: 200.004, reason: .completed),
            .init(index: 1, kind: .walk, planned: .init(durationSeconds: 60, distanceMetres: nil), startSeconds: 93,
                  endSeconds: 153, activeSeconds: 60, distanceMetres: 80.004, reason: .completed),
        ]
        builder.movingSeconds = 500
        builder.cues = [Cue(atSeconds: 3.0004, text: "Run", kind: .transition)]
        builder.events = [SessionEventRecord(kind: .pause, atSeconds: 33, phaseIndex: 0)]
        let summary = builder.build()
        #expect(summary.durationSeconds == 120)
        #expect(summary.elapsedSeconds == 150)
        #expect(summary.pausedSeconds == 30)
        #expect(summary.movingTimeSeconds == 120, "never more than the workout's duration")
        #expect(summary.distanceMetres == 280.01, "the sum of the unrounded phases, rounded once")
        #expect(summary.phases.map(\.startSeconds) == [0, 90])
        #expect(summary.phases.map(\.averagePaceSecondsPerKm) == [300, 750])
        #expect(summary.cues.first?.atSeconds == 0)
        #expect(summary.events?.first?.atSeconds == 30)
        #expect(summary.gpsGaps == nil)
    }
}

@Suite("Smoother history storage")
struct SmootherStorageTests {
    @Test("a chunked array reads back what was appended, across chunks")
    func chunked() {
        var array = ChunkedArray<Int>()
        #expect(array.isEmpty && array.first == nil)
        for i in 0..<10_000 { array.append(i * 3) }
        #expect(array.count == 10_000)
        #expect(array[0] == 0 && array[4095] == 4095 * 3 && array[4096] == 4096 * 3 && array[9_999] == 29_997)
        #expect(array.map { $0 } == (0..<10_000).map { $0 * 3 })
        #expect(array.last == 29_997)
        #expect(array.contains { $0 == 12_288 } && !array.contains { $0 == 1 })
    }

    @Test("a symmetric matrix comes back bit for bit from its upper triangle")
    func symmetric() {
        var filter = ConstantVelocityFilter(east: 1, north: 2, positionVariance: 4.1, velocityVariance: 0.3)
        filter.predict(by: 0.1, accelerationSpectralDensity: 0.7)
        filter.updatePosition(east: 1.3, north: 1.9, varianceEast: 2.2, varianceNorth: 3.1)
        filter.updateSpeed(2.5, variance: 0.01)
        #expect(filter.covariance == filter.covariance.transposed, "the filter keeps it exactly symmetric")
        #expect(SymmetricMatrix4(filter.covariance).matrix == filter.covariance)
    }
}
