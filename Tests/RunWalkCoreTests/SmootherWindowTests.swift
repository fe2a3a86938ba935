import Testing
@testable import RunWalkCore

/// The smoother's history is a window (`SmootherHistory`): steps are settled as the run goes,
/// so a live run's memory does not grow with its length, and the figures are the whole-run
/// pass's.
@Suite("Smoother window")
struct SmootherWindowTests {
    /// A whole-run pass: a window larger than any run here, so nothing is settled early.
    static let wholeRun = 1 << 30
    /// What a settled step may differ from the whole-run pass by, summed over a run (the summary
    /// rounds metres to 0.01 and seconds to 0.001). Measured here with the default window
    /// (2048 + 8192 steps): 3.3e-5 m and 2.0e-5 s; with 4096 + 12,288 steps, 2e-7 m and 1e-7 s.
    static let toleranceMetres = 1e-4
    static let toleranceSeconds = 1e-4

    static func run(_ fixes: [Fix], block: Int, lag: Int, lagSeconds: Double = .infinity, spanFrom start: UTCTime? = nil,
                    watch: (Telemetry) -> Void = { _ in }) -> Telemetry {
        var telemetry = Telemetry(settings: TelemetrySettings(), smootherBlockSteps: block, smootherLagSteps: lag,
                                  smootherLagSeconds: lagSeconds)
        if let start { telemetry.beginSmoothedSpan(from: start, elapsedOffset: 0, splitUnitMetres: 1000) }
        for fix in fixes {
            _ = telemetry.ingest(fix)
            watch(telemetry)
        }
        return telemetry
    }

    /// A runner who runs, stops, walks and runs again, with a dropout: stops, gaps and their
    /// bridges fall on block edges somewhere.
    static func varied(rateHz: Int, seconds: Double) -> [Fix] {
        var track = TestTrack()
        track.rateHz = rateHz
        track.seconds = seconds
        track.speed = { t in
            let minute = Int(t / 60) % 9
            return minute == 4 ? 0 : minute >= 6 ? 1.4 : 3.2
        }
        track.dropout = (seconds * 0.37, seconds * 0.37 + 20)
        return track.fixes()
    }

    /// Expects the span's distance and split times of `windowed` from `start` to `end` to be the
    /// whole-run pass's, within the tolerances, with at least `minimumSplits` splits.
    static func expectWholeRunFigures(_ windowed: Telemetry, _ whole: Telemetry, from start: UTCTime, to end: UTCTime,
                                      minimumSplits: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let a = try #require(windowed.smoothed(from: start, to: end), sourceLocation: sourceLocation)
        let b = try #require(whole.smoothed(from: start, to: end), sourceLocation: sourceLocation)
        #expect(abs(a.distanceMetres - b.distanceMetres) <= Self.toleranceMetres, "\(a.distanceMetres) m, whole run \(b.distanceMetres) m",
                sourceLocation: sourceLocation)
        #expect(a.splits.count == b.splits.count && a.splits.count >= minimumSplits, "\(a.splits.count) splits", sourceLocation: sourceLocation)
        let worstSplit = zip(a.splits, b.splits).map { abs($0.elapsedSeconds - $1.elapsedSeconds) }.max() ?? .infinity
        #expect(worstSplit <= Self.toleranceSeconds, "split times differ by up to \(worstSplit) s", sourceLocation: sourceLocation)
    }

    @Test("an hour at 10 Hz holds a bounded history, and its span's figures are the whole-run pass's")
    func boundedLongRun() throws {
        let fixes = Self.varied(rateHz: 10, seconds: 3600)
        let start = fixes[30].time, end = fixes[fixes.count - 5].time
        var mostRetained = 0, mostAllocated = 0
        let windowed = Self.run(fixes, block: SmootherHistory.defaultBlockSteps, lag: SmootherHistory.defaultLagSteps,
                                spanFrom: start) { telemetry in
            mostRetained = max(mostRetained, telemetry.history.retainedCount)
            mostAllocated = max(mostAllocated, telemetry.history.allocatedSteps)
        }
        let whole = Self.run(fixes, block: Self.wholeRun, lag: Self.wholeRun)
        #expect(windowed.history.count == fixes.count && whole.history.retainedCount >= fixes.count,
                "every fix is a step; the whole-run pass keeps every one")
        let bound = SmootherHistory.defaultBlockSteps + SmootherHistory.defaultLagSteps
        // The window, the reducer's settled block and the few seconds a gap's bridge reads.
        #expect(mostRetained <= 2 * bound, "at most \(mostRetained) steps held for \(fixes.count) fixes")
        #expect(mostAllocated <= bound, "at most \(mostAllocated) step slots allocated: whole chunks are freed as blocks settle")
        #expect(bound * MemoryLayout<SmootherHistory.Step>.stride <= 1_310_720, "the window is at most 1.25 MB")
        try Self.expectWholeRunFigures(windowed, whole, from: start, to: end, minimumSplits: 7)
    }

    @Test("three hours at 1 Hz: the lag in seconds keeps the window to a block and 14 minutes, with the whole-run figures")
    func slowReceiverWindow() throws {
        let fixes = Self.varied(rateHz: 1, seconds: 3 * 3600)
        let start = fixes[30].time, end = fixes[fixes.count - 5].time
        var mostAllocated = 0
        let windowed = Self.run(fixes, block: SmootherHistory.defaultBlockSteps, lag: SmootherHistory.defaultLagSteps,
                                lagSeconds: SmootherHistory.defaultLagSeconds, spanFrom: start) { telemetry in
            mostAllocated = max(mostAllocated, telemetry.history.allocatedSteps)
        }
        let stepsOnly = Self.run(fixes, block: SmootherHistory.defaultBlockSteps, lag: SmootherHistory.defaultLagSteps)
        let whole = Self.run(fixes, block: Self.wholeRun, lag: Self.wholeRun)
        // A block, the lag at 1 fix a second, and the chunk being filled.
        let bound = 2 * SmootherHistory.defaultBlockSteps + Int(SmootherHistory.defaultLagSeconds.rounded(.up))
        #expect(mostAllocated <= bound, "at most \(mostAllocated) step slots allocated for \(fixes.count) fixes (bound \(bound))")
        #expect(stepsOnly.history.allocatedSteps > bound, "without the lag in seconds the window would hold \(stepsOnly.history.allocatedSteps)")
        try Self.expectWholeRunFigures(windowed, whole, from: start, to: end, minimumSplits: 20)
    }

    @Test("small blocks settle stops, gaps and segment breaks as the whole-run pass does", arguments: [(1, 64), (1, 500), (10, 1500)])
    func smallBlocks(rateHz: Int, block: Int) throws {
        var fixes = Self.varied(rateHz: rateHz, seconds: 3600)
        // A new track segment half-way (a paused recording in a GPX file).
        fixes[fixes.count / 2].startsSegment = true
        let whole = Self.run(fixes, block: Self.wholeRun, lag: Self.wholeRun)
        let windowed = Self.run(fixes, block: block, lag: rateHz == 1 ? 600 : SmootherHistory.defaultLagSteps)
        let series = windowed.smoothedDistanceSeries(), reference = whole.smoothedDistanceSeries()
        #expect(series.count == reference.count)
        #expect(series.map(\.seconds) == reference.map(\.seconds))
        let worst = zip(series, reference).map { abs($0.metres - $1.metres) }.max() ?? .infinity
        #expect(worst <= Self.toleranceMetres, "worst difference \(worst) m")
        let first = try #require(fixes.first?.time), last = try #require(fixes.last?.time)
        let a = try #require(windowed.smoothedDistanceMetres(from: first, to: last))
        let b = try #require(whole.smoothedDistanceMetres(from: first, to: last))
        #expect(abs(a - b) <= Self.toleranceMetres)
    }

    @Test("a span begun before the first fix, or ending on a fix, gives the whole-run figures", arguments: [-5000, 0, 2500])
    func spanEdges(startOffsetMilliseconds: Int64) throws {
        let fixes = Self.varied(rateHz: 1, seconds: 1800)
        let start = UTCTime(milliseconds: fixes[0].time.milliseconds + startOffsetMilliseconds)
        let end = fixes[1000].time
        let windowed = Self.run(fixes.prefix(1001).map { $0 }, block: 100, lag: 600, spanFrom: start)
        let whole = Self.run(fixes.prefix(1001).map { $0 }, block: Self.wholeRun, lag: Self.wholeRun)
        let a = try #require(windowed.smoothed(from: start, to: end))
        let b = try #require(whole.smoothed(from: start, to: end))
        #expect(abs(a.distanceMetres - b.distanceMetres) <= Self.toleranceMetres && a.splits.count == b.splits.count)
        let worstSplit = zip(a.splits, b.splits).map { abs($0.elapsedSeconds - $1.elapsedSeconds) }.max() ?? 0
        #expect(worstSplit <= Self.toleranceSeconds)
        #expect(windowed.smoothed(from: UTCTime(milliseconds: start.milliseconds + 1000), to: end) == nil,
                "a span keeps only its own start's figures")
    }

    @Test("a session keeps a bounded history, its summary the whole-run smoothed figures; fixes after its end do not count")
    func sessionSummary() throws {
        // 85 minutes at 10 Hz for a 60-minute workout: the 25 minutes after the end are more than
        // the lag, so points after the end are settled while fixes still come.
        let fixes = Self.varied(rateHz: 10, seconds: 5100)
        let first = try #require(fixes.first).time
        var runner = SessionRunner(workout: try Workout(parsing: "60m run"))
        _ = runner.start(at: .zero, utc: first)
        var mostRetained = 0
        for fix in fixes {
            _ = runner.ingest(fix, at: fix.time.since(first))
            mostRetained = max(mostRetained, runner.telemetry.history.retainedCount)
        }
        let summary = runner.summary(linesBad: 0)
        let whole = Self.run(fixes, block: Self.wholeRun, lag: Self.wholeRun)
        let reference = try #require(whole.smoothed(from: first, to: first.adding(.seconds(3600))))
        let smoothed = try #require(summary.smoothedDistanceMetres)
        #expect(abs(smoothed - reference.distanceMetres) <= 0.005 + Self.toleranceMetres,
                "summary \(smoothed) m, whole run \(reference.distanceMetres) m over the workout")
        let splits = try #require(summary.smoothedSplits)
        #expect(splits.count == reference.splits.count && splits.count >= 8)
        let worstSplit = zip(splits, reference.splits).map { abs($0.elapsedSeconds - $1.elapsedSeconds) }.max() ?? .infinity
        #expect(worstSplit <= 0.0005 + Self.toleranceSeconds, "split times differ by up to \(worstSplit) s")
        let bound = SmootherHistory.defaultBlockSteps + SmootherHistory.defaultLagSteps
        #expect(mostRetained <= 2 * bound, "at most \(mostRetained) steps held for \(fixes.count) fixes")
    }

    @Test("a chunked array drops from the front and frees whole chunks")
    func chunkedDropFirst() {
        let chunk = 1 << ChunkedArray<Int>.chunkShift
        var array = ChunkedArray<Int>()
        for i in 0..<(2 * chunk + chunk / 2) { array.append(i) }
        array.removeFirst(chunk + chunk / 4)
        #expect(array.count == chunk + chunk / 4 && array[0] == chunk + chunk / 4 && array.last == 2 * chunk + chunk / 2 - 1)
        #expect(array.allocatedCount == 2 * chunk, "the first chunk is freed, the third is part-used")
        for i in 0..<chunk { array.append(3 * chunk + i) }
        #expect(array.count == 2 * chunk + chunk / 4 && array.last == 4 * chunk - 1 && array[chunk + chunk / 4] == 3 * chunk)
        array.removeFirst(array.count)
        #expect(array.isEmpty && array.allocatedCount == 0)
        array.append(1)
        #expect(array.first == 1 && array.count == 1)
    }
}
