import Foundation
import Testing
import RunWalkGPS
import RunWalkRuntime
@testable import RunWalkStore
import RunWalkCore
import RunWalkIO

@Suite("SessionRecorder")
struct SessionRecorderTests {
    @Test("a recorded replay loads back: summary, JSON, every track point and every fix")
    func roundTrip() async throws {
        let folder = try TemporaryStoreFolder()
        let warnings = Warnings()
        let (result, events, outcome, json) = try await Samples.recordDemo(into: folder.location, warnings: warnings)
        #expect(outcome == SessionRecorder.Outcome(sessionID: 1, rowsLost: 0))
        #expect(warnings.all.isEmpty)
        let store = try RunWalkStore(location: folder.location)
        let session = try store.loadSession(.last)
        #expect(session.summary == result.summary)
        // The JSON is kept as printed (Foundation's encoder does not fix the key order from run to run).
        #expect(session.summaryJSON == json)
        let points = events.compactMap { event -> TrackPoint? in
            if case .trackPoint(let point) = event { return point }
            return nil
        }
        #expect(session.trackPoints == points)
        #expect(try store.fixCount(sessionID: 1) == result.summary.fixes.epochs)
        #expect(session.info.state == .closed(.completed))
        #expect(session.info.startUTC?.iso8601(fractionDigits: 0) == result.summary.startUTC)
        // No lock file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.location.locksDirectory).isEmpty)
    }

    @Test("a summary rebuilt from the rows agrees with the one the runner made")
    func rebuild() async throws {
        let folder = try TemporaryStoreFolder()
        let (result, _, _, _) = try await Samples.recordDemo(into: folder.location)
        let store = try RunWalkStore(location: folder.location)
        let rebuilt = try store.read { db in try SummaryRebuilder.summary(db, sessionID: 1, state: result.summary.state) }
        #expect(rebuilt.phases == result.summary.phases)
        #expect(rebuilt.splits == result.summary.splits)
        #expect(rebuilt.cues == result.summary.cues)
        #expect(rebuilt.distanceMetres == result.summary.distanceMetres)
        #expect(rebuilt.durationSeconds == result.summary.durationSeconds)
        #expect(rebuilt.fixes.epochs == result.summary.fixes.epochs)
        #expect(rebuilt.fixes.used == result.summary.fixes.used)
        #expect(abs(rebuilt.movingTimeSeconds - result.summary.movingTimeSeconds) <= 2, "moving time is recounted from track points")
    }

    @Test("pause, resume, skip and GPS lost/back are stored as events")
    func events() throws {
        let folder = try TemporaryStoreFolder()
        let workout = try Workout(parsing: "2m run, 2m walk, 2m run")
        var runner = SessionRunner(workout: workout)
        let recorder = SessionRecorder(location: folder.location, session: .init(workout: workout, options: runner.options, source: "test"),
                                       warn: { _ in })
        func fix(_ second: Int64) -> Fix { Samples.fix(second) }
        var events = runner.start(at: .zero, utc: fix(0).time)
        for second in Int64(0)...10 { events += runner.ingest(fix(second), at: .seconds(second)) }
        // The GPS drops out for 20 s (the session loop's detector says so 3 s after the last fix), then comes back.
        events += runner.gpsLost(at: .seconds(13))
        events += runner.gpsBack(at: .seconds(30))
        for second in Int64(30)...40 { events += runner.ingest(fix(second), at: .seconds(second)) }
        events += runner.pause(at: .seconds(41))
        events += runner.resume(at: .seconds(50))
        events += runner.skip(at: .seconds(51))
        events += runner.stop(at: .seconds(60))
        for event in events { recorder.record(event) }
        let outcome = recorder.finish(summary: runner.summary(linesBad: 0), summaryJSON: "{}")
        let store = try RunWalkStore(location: folder.location)
        let kinds = try store.read { db in
            try db.values(String.self, "SELECT kind || '@' || at_s FROM events WHERE session_id = ? ORDER BY id", [outcome.sessionID])
        }
        #expect(kinds == ["start@0.0", "gps_lost@13.0", "gps_back@30.0", "pause@41.0", "resume@50.0", "skip@51.0", "stopped@60.0"])
        let phases = try store.read { db in
            try db.rows("SELECT idx, kind, planned_duration_s, start_s, end_reason FROM phases WHERE session_id = ? ORDER BY idx",
                        [outcome.sessionID]).map { "\(try $0.get(0) as Int) \(try $0.get(1) as String) \(try $0.get(2) as Double) \(($0[3] as Double?).map { String($0) } ?? "-") \(($0[4] as String?) ?? "-")" }
        }
        #expect(phases == ["0 run 120.0 0.0 skipped", "1 walk 120.0 51.0 stopped", "2 run 120.0 - -"])
    }

    @Test("a folder that cannot be created: warned once, the session goes on, the rows are counted as lost")
    func unwritableFolder() async throws {
        let warnings = Warnings()
        var settings = SessionRecorder.Settings()
        settings.retryIntervalSeconds = 0.05
        settings.commitIntervalSeconds = 0.01
        let location = StoreLocation(directory: "/dev/null/runwalk")
        let (result, _, outcome, _) = try await Samples.recordDemo(into: location, warnings: warnings, settings: settings)
        #expect(result.summary.state == .completed)
        #expect(outcome.sessionID == nil)
        #expect(outcome.rowsLost > result.summary.fixes.epochs)
        let failures = warnings.all.filter { $0.contains("cannot record to /dev/null/runwalk/runwalk.sqlite") }
        #expect(failures.count == 1, "\(warnings.all)")
        #expect(warnings.all.last?.hasPrefix("runwalk: warning: recording incomplete: \(outcome.rowsLost) rows") == true)
    }

    @Test("a size-capped database (max_page_count) keeps the start of the run and stays sound")
    func cappedDatabase() async throws {
        let folder = try TemporaryStoreFolder()
        let warnings = Warnings()
        let workout = try Workout(parsing: Samples.demoWorkout)
        let replay = SessionLoop.replaying(workout)
        var settings = SessionRecorder.Settings()
        settings.commitIntervalSeconds = 0.001
        let recorder = SessionRecorder(location: folder.location, storeOptions: .init(maximumPageCount: 27),  // 25, and the heart_rate table and index
                                       session: .init(workout: workout, options: replay.options, source: "test"),
                                       settings: settings, warn: { warnings.add($0) })
        let log = SessionEventLog(also: { event in
            recorder.record(event)
            if case .telemetry = event { usleep(300) }  // give the writer a chance to commit batches mid-run
        })
        let result = await replay.replay(track: Samples.demo, hooks: log.hooks)
        let outcome = recorder.finish(summary: result.summary, summaryJSON: try SummaryJSON.encode(result.summary))
        #expect(outcome.rowsLost > 0)
        #expect(warnings.all.filter { $0.contains("database or disk is full") }.count == 1, "\(warnings.all)")
        let store = try RunWalkStore(location: folder.location)
        #expect(try store.integrityCheck() == "ok")
        let kept = try store.fixCount(sessionID: 1)
        #expect(kept > 0 && kept < result.summary.fixes.epochs, "kept \(kept)")
    }
}
