import Foundation
import Testing
@testable import RunWalkStore
import RunWalkCore

/// The recorder's rows bound directly (`RowStatements`) and its connection's page cache.
@Suite("recorder rows and page cache")
struct RecorderRowTests {
    @Test("fix and track-point rows bound value by value read back as written; NaN and none are NULL")
    func roundTrip() throws {
        let folder = try TemporaryStoreFolder()
        let store = try RunWalkStore(location: folder.location)
        var fix = Fix(time: UTCTime(milliseconds: 1_776_000_000_100))
        fix.latitude = 47.370001
        fix.longitude = 8.540002
        fix.altitudeMSL = .nan
        fix.speedMetresPerSecond = 3.25
        fix.mode = .threeD
        fix.quality = 2
        fix.hdop = 0.9
        fix.satellitesUsed = 11
        var telemetry = Telemetry()
        var update = telemetry.ingest(fix)
        update.accepted = true
        update.distanceMetres = 1234.5
        update.latitude = 47.37
        update.longitude = 8.54
        update.speedMetresPerSecond = .infinity
        update.raw = fix
        let point = TrackPoint(elapsedSeconds: 12.5, time: fix.time, latitude: 47.37, longitude: 8.54, altitudeMSL: nil,
                               distanceMetres: 1234.5, speedMetresPerSecond: 3.2, paceSecondsPerKm: nil, phaseIndex: 2,
                               rawLatitude: 47.370001, rawLongitude: nil, afterGap: true, hdop: 0.9)
        let rows: [RecordedRow] = [.fix(update, atSeconds: 12.5), .trackPoint(point), .fix(update, atSeconds: 12.6)]
        try Self.write(rows, sessionID: 7, to: store)
        try store.read { db in
            let fixes = try db.rows("SELECT * FROM fixes ORDER BY at_s")
            #expect(fixes.count == 2)
            let first = try #require(fixes.first)
            #expect(first["session_id"] as Int64? == 7 && first["at_s"] as Double? == 12.5)
            #expect(first["time_ms"] as Int64? == 1_776_000_000_100)
            #expect(first["lat"] as Double? == 47.370001 && first["lon"] as Double? == 8.540002)
            #expect(first["alt_msl"] as Double? == nil, "NaN is stored as NULL")
            #expect(first["speed_mps"] as Double? == 3.25 && first["course_deg"] as Double? == nil)
            #expect(first["mode"] as Int? == 3 && first["quality"] as Int? == 2 && first["sats"] as Int? == 11)
            #expect(first["hdop"] as Double? == 0.9 && first["accepted"] as Bool? == true)
            #expect(first["est_lat"] as Double? == 47.37 && first["total_distance_m"] as Double? == 1234.5)
            #expect(first["est_speed_mps"] as Double? == nil, "an infinity is stored as NULL")
            #expect(first["pace_s_per_km"] as Double? == nil)
            #expect(fixes[1]["at_s"] as Double? == 12.6, "the second row rebinds the same statement")
            let points = try db.rows("SELECT * FROM track_points")
            let p = try #require(points.first)
            #expect(points.count == 1 && p["elapsed_s"] as Double? == 12.5 && p["phase_idx"] as Int? == 2)
            #expect(p["alt_msl"] as Double? == nil && p["raw_lat"] as Double? == 47.370001 && p["raw_lon"] as Double? == nil)
            #expect(p["after_gap"] as Bool? == true && p["speed_mps"] as Double? == 3.2 && p["distance_m"] as Double? == 1234.5)
        }
    }

    @Test("rows go in groups of 16 through one multi-row insert, the rest one by one; all in order, none lost",
          arguments: [0, 1, 15, 16, 17, 37, 48])
    func groupedInserts(count: Int) throws {
        let folder = try TemporaryStoreFolder()
        let store = try RunWalkStore(location: folder.location)
        var rows: [RecordedRow] = []
        for i in 0..<count {
            var fix = Fix(time: UTCTime(milliseconds: 1_776_000_000_000 + Int64(i) * 100))
            fix.latitude = 47 + Double(i) * 1e-5
            fix.longitude = 8.5
            fix.satellitesUsed = i % 13
            var telemetry = Telemetry()
            var update = telemetry.ingest(fix)
            update.distanceMetres = Double(i) * 0.3
            update.raw = fix
            rows.append(.fix(update, atSeconds: Double(i) / 10))
            rows.append(.trackPoint(TrackPoint(elapsedSeconds: Double(i) / 10, time: fix.time, latitude: fix.latitude ?? 0,
                                               longitude: 8.5, altitudeMSL: nil, distanceMetres: Double(i) * 0.3,
                                               speedMetresPerSecond: nil, paceSecondsPerKm: nil, phaseIndex: i / 10,
                                               rawLatitude: nil, rawLongitude: nil, afterGap: i == 5, hdop: nil)))
        }
        try Self.write(rows, sessionID: 3, to: store)
        try store.read { db in
            let fixes = try db.rows("SELECT session_id, at_s, time_ms, lat, sats, total_distance_m FROM fixes ORDER BY id")
            #expect(fixes.count == count)
            for (i, row) in fixes.enumerated() {
                #expect(row["session_id"] as Int64? == 3 && row["at_s"] as Double? == Double(i) / 10, "fix \(i)")
                #expect(row["time_ms"] as Int64? == 1_776_000_000_000 + Int64(i) * 100 && row["sats"] as Int? == i % 13)
                #expect(row["lat"] as Double? == 47 + Double(i) * 1e-5 && row["total_distance_m"] as Double? == Double(i) * 0.3)
            }
            let points = try db.rows("SELECT session_id, elapsed_s, phase_idx, after_gap FROM track_points ORDER BY id")
            #expect(points.count == count)
            for (i, row) in points.enumerated() {
                #expect(row["session_id"] as Int64? == 3 && row["elapsed_s"] as Double? == Double(i) / 10, "point \(i)")
                #expect(row["phase_idx"] as Int? == i / 10 && row["after_gap"] as Bool? == (i == 5))
            }
        }
    }

    /// Writes `rows` for a new session `sessionID` in one transaction, as the recorder's writer does.
    static func write(_ rows: [RecordedRow], sessionID: Int64, to store: RunWalkStore) throws {
        try store.write { db in
            try db.execute("""
                INSERT INTO sessions (id, workout_spec, source, units, get_ready_s, recorded_wall_ms, state)
                VALUES (?, 'test', 'test', 'metric', 0, 0, 'recording')
                """, [sessionID])
            try RowStatements.inserting(db, sessionID: sessionID) { statements in
                for row in rows { try row.write(db, sessionID: sessionID, statements: &statements) }
            }
        }
    }

    @Test("the recorder's connection keeps a 256 KiB page cache; other stores keep SQLite's")
    func pageCache() throws {
        let folder = try TemporaryStoreFolder()
        let recorder = try RunWalkStore(location: folder.location, options: StoreWriter.recorderOptions(.init()))
        #expect(try recorder.write { try $0.value(Int.self, "PRAGMA cache_size") } == -256)
        let plain = try RunWalkStore(location: folder.location)
        #expect(try plain.write { try $0.value(Int.self, "PRAGMA cache_size") } == -2000)
    }
}
