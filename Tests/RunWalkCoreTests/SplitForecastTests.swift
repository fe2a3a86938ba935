import Testing
@testable import RunWalkCore

/// Issue 30, item 6: "Kilometre k" is said where the runner is at the kilometre. A split the live
/// distance reaches between two fixes is said at the predicted instant (distance to go / filtered
/// speed after the fix before), not at the fix after it.
@Suite("SplitForecast")
struct SplitForecastTests {
    /// Where a split came from: the clock of the call that produced it, and whether that call was a fix.
    struct Said {
        var split: Split
        var clockSeconds: Double
        var atFix: Bool
        var cue: Cue?
    }

    /// A live run over `fixes` (`SessionRunner` as the loop drives it): each fix at its own time,
    /// and the clock moved on every `tickSeconds` in between (a loop that wakes that often).
    /// Returns what was said, the telemetry after each fix (clock, distance, speed, stationary),
    /// and the runner.
    static func live(_ fixes: [Fix], spec: String = "30m run", options: SessionOptions = SessionOptions(),
                     tickSeconds: Double = 0.01, control: (inout SessionRunner, Double) -> Void = { _, _ in })
        throws -> (said: [Said], updates: [(clock: Double, update: TelemetryUpdate)], runner: SessionRunner) {
        var runner = SessionRunner(workout: try Workout(parsing: spec), options: options)
        let start = try #require(fixes.first).time
        _ = runner.start(at: .zero, utc: start)
        var said: [Said] = []
        var updates: [(clock: Double, update: TelemetryUpdate)] = []
        func collect(_ events: [SessionEvent], at clock: Double, atFix: Bool) {
            for event in events {
                switch event {
                case .split(let split): said.append(Said(split: split, clockSeconds: clock, atFix: atFix))
                case .cue(let cue) where cue.kind == .split: said[said.count - 1].cue = cue
                case .telemetry(let update, let at): updates.append((at, update))
                default: break
                }
            }
        }
        var tick = 0.0
        for fix in fixes {
            let at = fix.time.since(start).seconds
            while tick + tickSeconds < at - 1e-9 {
                tick += tickSeconds
                collect(runner.advance(to: .seconds(double: tick)), at: tick, atFix: false)
                control(&runner, tick)
            }
            collect(runner.ingest(fix, at: .seconds(double: at)), at: at, atFix: true)
            control(&runner, at)
            tick = at
        }
        return (said, updates, runner)
    }

    /// A runner at 3 m/s on a nearly straight line, 1 Hz with Doppler, for `seconds`.
    static func steady(rateHz: Int = 1, seconds: Double = 1100, seed: UInt64 = 3) -> TestTrack {
        var track = TestTrack()
        track.rateHz = rateHz
        track.seconds = seconds
        track.radiusMetres = 100_000
        track.seed = seed
        return track
    }

    /// The instant the live distance after `update` reaches `metres` at its filtered speed, when
    /// that is within `interval` of the fix (what the loop is asked to wake for).
    static func predicted(_ clock: Double, _ update: TelemetryUpdate, metres: Double, interval: Double) -> Double? {
        guard let v = update.speedMetresPerSecond, v > 0.5, !update.stationary else { return nil }
        let ahead = (metres - update.distanceMetres) / v
        return ahead > 0 && ahead < interval ? clock + ahead : nil
    }

    @Test("a split the distance reaches between two 1 Hz fixes is said at the predicted instant, not at the next fix")
    func saidAtPredictedInstant() throws {
        let (said, updates, runner) = try Self.live(Self.steady().fixes())
        #expect(said.count == 3, "3.3 km run: \(said.map(\.split.index))")
        var predictedCount = 0
        for item in said {
            let metres = Double(item.split.index) * 1000
            // The fix before the split: the last telemetry strictly before the moment it was said.
            let before = try #require(updates.last { $0.clock < item.clockSeconds })
            guard let due = Self.predicted(before.clock, before.update, metres: metres, interval: 1) else { continue }
            predictedCount += 1
            #expect(!item.atFix, "split \(item.split.index) waited for the fix at \(item.clockSeconds) s (due at \(due) s)")
            #expect(item.clockSeconds >= due - 1e-9 && item.clockSeconds < due + 0.01 + 1e-9,
                    "split \(item.split.index) said at \(item.clockSeconds) s, due at \(due) s")
            #expect(abs(item.split.elapsedSeconds - due) < 1e-9, "the split's own time is the predicted instant")
            let cue = try #require(item.cue, "split \(item.split.index) has its cue")
            #expect(abs(cue.atSeconds - due) < 1e-9, "the cue is placed at the predicted instant")
        }
        #expect(predictedCount >= 2, "at 3 m/s most splits fall within a fix interval of the fix before")
        // The summary's splits stay consistent: in order, each the time since the one before.
        let splits = runner.splits.splits
        #expect(zip(splits, splits.dropFirst()).allSatisfy { $0.elapsedSeconds < $1.elapsedSeconds })
        let total = splits.reduce(0) { $0 + $1.splitSeconds }
        #expect(abs(total - (splits.last?.elapsedSeconds ?? 0)) < 1e-9)
    }

    @Test("the prediction changes no distance, and the split times move by less than a fix interval")
    func distanceUnchanged() throws {
        var off = SessionOptions()
        off.predictsSplitCrossings = false
        let fixes = Self.steady().fixes()
        let (_, _, predicted) = try Self.live(fixes, tickSeconds: 0.25)
        let (_, _, atFix) = try Self.live(fixes, options: off, tickSeconds: 0.25)
        #expect(predicted.activeDistanceMetres == atFix.activeDistanceMetres)
        #expect(predicted.splits.splits.count == atFix.splits.splits.count)
        for (a, b) in zip(predicted.splits.splits, atFix.splits.splits) {
            #expect(abs(a.elapsedSeconds - b.elapsedSeconds) < 1, "split \(a.index): \(a.elapsedSeconds) vs \(b.elapsedSeconds)")
        }
    }

    @Test("at 10 Hz nothing is predicted: the splits are those the fixes complete")
    func tenHertzUnchanged() throws {
        var off = SessionOptions()
        off.predictsSplitCrossings = false
        let fixes = Self.steady(rateHz: 10, seconds: 700).fixes()
        var due: [Double] = []
        let (said, _, predicted) = try Self.live(fixes, tickSeconds: 0.05) { runner, _ in
            if let d = runner.splitDueSeconds { due.append(d) }
        }
        let (_, _, atFix) = try Self.live(fixes, options: off, tickSeconds: 0.05)
        #expect(due.isEmpty, "predicted at 10 Hz: \(due.prefix(3))")
        #expect(said.count == 2 && said.allSatisfy(\.atFix))
        #expect(predicted.splits.splits == atFix.splits.splits)
        #expect(predicted.cues == atFix.cues)
    }

    @Test("standing never predicts: a runner who stops 10 m short of the kilometre hears nothing until moving again")
    func standingNeverPredicts() throws {
        var track = Self.steady(seconds: 500)
        // 3 m/s until 990 m, standing for 60 s, then on.
        let stop = 990.0 / 3
        track.speed = { t in t < stop ? 3 : (t < stop + 60 ? 0 : 3) }
        var dueWhileStanding: [Double] = []
        let (said, updates, _) = try Self.live(track.fixes(), tickSeconds: 0.1) { runner, clock in
            let stopped = clock > stop + 5 && clock < stop + 60
            if stopped, let due = runner.splitDueSeconds { dueWhileStanding.append(due) }
        }
        #expect(dueWhileStanding.isEmpty, "predicted while standing: \(dueWhileStanding.prefix(3))")
        let first = try #require(said.first)
        #expect(first.clockSeconds > stop + 60, "said at \(first.clockSeconds) s, while standing")
        #expect(updates.contains { $0.update.stationary }, "the stop was seen as standing")
    }

    @Test("a pause, a skip, a stop and the GPS lost each drop a pending prediction")
    func cancelled() throws {
        let fixes = Self.steady(seconds: 400).fixes()
        for action in ["pause", "skip", "stop", "gps"] {
            var dropped: Double?
            var acted = false
            let (said, _, runner) = try Self.live(fixes, spec: "10m run, 10m run", tickSeconds: 0.5) { runner, clock in
                guard !acted, let due = runner.splitDueSeconds, clock < due else { return }
                acted = true
                dropped = due
                let at = Duration.seconds(double: clock)
                switch action {
                case "pause": _ = runner.pause(at: at)
                case "skip": _ = runner.skip(at: at)
                case "stop": _ = runner.stop(at: at)
                default: _ = runner.gpsLost(at: at)
                }
                #expect(runner.splitDueSeconds == nil, "\(action) left the prediction pending")
            }
            let due = try #require(dropped, "\(action): a prediction came")
            #expect(!said.contains { !$0.atFix && abs($0.split.elapsedSeconds - due) < 1e-9 },
                    "\(action): the dropped prediction was said")
            if action == "skip" || action == "gps" {
                // The run goes on: the split comes with the next fix instead.
                #expect(said.first?.atFix == true && said.first?.split.index == 1, "\(action): \(said.map(\.clockSeconds))")
            }
            if action == "pause" || action == "stop" {
                #expect(runner.splits.splits.isEmpty, "\(action): \(runner.splits.splits)")
            }
        }
    }

    @Test("after a gap in the fixes the first fix predicts nothing (the next one's time is unknown)")
    func noPredictionAfterGap() throws {
        var track = Self.steady(seconds: 400)
        // Fixes stop 8 s before the kilometre and come back 1–2 m short of it.
        let crossing = 1000.0 / 3
        track.dropout = (crossing - 8, crossing - 0.6)
        var dues: [(clock: Double, due: Double)] = []
        let (said, updates, _) = try Self.live(track.fixes(), tickSeconds: 0.1) { runner, clock in
            if let due = runner.splitDueSeconds { dues.append((clock, due)) }
        }
        let back = try #require(updates.first { $0.clock > crossing - 8 })
        #expect(!dues.contains { abs($0.clock - back.clock) < 1e-9 }, "predicted at the fix after the gap: \(dues)")
        #expect(said.first?.atFix == true || (said.first?.clockSeconds ?? 0) > back.clock + 0.5,
                "said \(said.first.map { "\($0.clockSeconds) s" } ?? "never")")
    }

    @Test("a fix that comes before the predicted instant drops the prediction and completes the split once")
    func fixFirst() throws {
        let fixes = Self.steady(seconds: 400).fixes()
        var runner = SessionRunner(workout: try Workout(parsing: "30m run"))
        let start = try #require(fixes.first).time
        _ = runner.start(at: .zero, utc: start)
        var splits: [Split] = []
        var index = 0
        while runner.splitDueSeconds == nil, index < fixes.count {
            splits += runner.ingest(fixes[index], at: fixes[index].time.since(start)).compactMap(Self.split)
            index += 1
        }
        let due = try #require(runner.splitDueSeconds)
        #expect(splits.isEmpty)
        // The next fix reaches the loop just before the instant (it came early, or the runner slowed).
        splits += runner.ingest(fixes[index], at: .seconds(double: due - 0.001)).compactMap(Self.split)
        #expect(runner.splitDueSeconds == nil || runner.splitDueSeconds != due)
        for next in fixes[(index + 1)...].prefix(5) {
            splits += runner.advance(to: next.time.since(start) - .milliseconds(1)).compactMap(Self.split)
            splits += runner.ingest(next, at: next.time.since(start)).compactMap(Self.split)
        }
        #expect(splits.map(\.index) == [1], "\(splits)")
    }

    static func split(_ event: SessionEvent) -> Split? {
        if case .split(let split) = event { return split }
        return nil
    }

    @Test("the forecast: within one interval, moving, at a known rhythm of 0.5 to 2 s")
    func forecastRules() {
        func forecast(interval: Double, toGo: Double, speed: Double = 3, stationary: Bool = false) -> Double? {
            var f = SplitForecast()
            f.observe(fixTakenAt: UTCTime(milliseconds: 0))
            f.observe(fixTakenAt: UTCTime(milliseconds: Int64(interval * 1000)))
            return f.predict(atSeconds: 100, distanceMetres: 1000 - toGo, nextSplitMetres: 1000, speed: speed,
                             stationary: stationary, minimumSpeed: 0.5)
        }
        #expect(forecast(interval: 1, toGo: 1.5) == 100.5)
        #expect(forecast(interval: 1, toGo: 3) == nil, "exactly at the next fix: the fix says it")
        #expect(forecast(interval: 1, toGo: 4) == nil, "beyond the next fix")
        #expect(forecast(interval: 2, toGo: 4.5) == 101.5)
        #expect(forecast(interval: 2.5, toGo: 1) == nil, "an interval that bridged a gap")
        #expect(forecast(interval: 0.2, toGo: 0.3) == nil, "5 Hz and faster: the next fix is soon")
        #expect(forecast(interval: 1, toGo: 1, stationary: true) == nil)
        #expect(forecast(interval: 1, toGo: 0.2, speed: 0.4) == nil, "slower than moving")
        var f = SplitForecast()
        f.observe(fixTakenAt: UTCTime(milliseconds: 0))
        #expect(f.predict(atSeconds: 0, distanceMetres: 999, nextSplitMetres: 1000, speed: 3, stationary: false, minimumSpeed: 0.5) == nil,
                "no rhythm yet after one fix")
    }
}
