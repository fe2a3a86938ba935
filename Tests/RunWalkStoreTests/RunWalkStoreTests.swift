import Foundation
import Testing
import RunWalkGPS
import RunWalkRuntime
@testable import RunWalkStore
import RunWalkCore
import RunWalkIO

@Suite("StoreLocation")
struct StoreLocationTests {
    @Test("the data folder comes from RUNWALK_DATA_DIR, else XDG_DATA_HOME, else HOME", arguments: [
        (["RUNWALK_DATA_DIR": "/d", "XDG_DATA_HOME": "/x", "HOME": "/h"], "/d/runwalk.sqlite"),
        (["XDG_DATA_HOME": "/x", "HOME": "/h"], "/x/runwalk/runwalk.sqlite"),
        (["XDG_DATA_HOME": "relative", "HOME": "/h"], "/h/.local/share/runwalk/runwalk.sqlite"),
        (["RUNWALK_DATA_DIR": "", "HOME": "/h"], "/h/.local/share/runwalk/runwalk.sqlite"),
    ])
    func chooses(environment: [String: String], expected: String) {
        #expect(StoreLocation.fromEnvironment(environment).databasePath == expected)
    }
}

@Suite("RunWalkStore")
struct RunWalkStoreTests {
    @Test("a new store is a WAL database with the named migrations applied")
    func opens() throws {
        let folder = try TemporaryStoreFolder()
        let store = try RunWalkStore(location: folder.location)
        #expect(try store.journalMode() == "wal")
        #expect(try store.appliedMigrations() == ["v1-sessions-phases-fixes-cues-events", "v2-plans-session-names", "v3-heart-rate"])
        #expect(try store.integrityCheck() == "ok")
        // Reopening migrates nothing twice.
        #expect(try RunWalkStore(location: folder.location).appliedMigrations().count == 3)
    }

    @Test("opening without creating names the missing file")
    func missing() throws {
        let folder = try TemporaryStoreFolder()
        #expect(throws: StoreError.noDatabase(folder.location.databasePath)) {
            try RunWalkStore(location: folder.location, create: false)
        }
        #expect(try RunWalkStore.openIfPresent(location: folder.location) == nil)
    }

    @Test("session references parse `last` and positive numbers only", arguments: [
        ("last", SessionReference.last), ("12", .id(12)),
    ])
    func references(text: String, expected: SessionReference) throws {
        #expect(try SessionReference(parsing: text) == expected)
    }

    @Test("bad session references are refused", arguments: ["0", "-1", "first", ""])
    func badReferences(text: String) {
        #expect(throws: StoreError.badReference(text)) { try SessionReference(parsing: text) }
    }
}

@Suite("BestEffort")
struct BestEffortTests {
    @Test("the fastest window is found and its start interpolated", arguments: [
        // Even 4 m/s: 1000 m takes 250 s wherever it starts.
        ([(0.0, 0.0), (250.0, 1000.0), (500.0, 2000.0)], 1000.0, 250.0 as Double?),
        // A fast middle: 100..200 s covers 1000 m in 100 s.
        ([(0.0, 0.0), (100.0, 400.0), (200.0, 1400.0), (400.0, 1800.0)], 1000.0, 100.0),
        // Start between points: 1000 m ends at 300 m/50 s... from 150 m (interpolated at 15 s) to 1150 m at 115 s.
        ([(0.0, 0.0), (50.0, 500.0), (115.0, 1150.0)], 1000.0, 100.0),
        // Never covered.
        ([(0.0, 0.0), (300.0, 999.0)], 1000.0, nil),
        ([], 1000.0, nil),
    ])
    func fastest(points: [(Double, Double)], metres: Double, expected: Double?) {
        let result = BestEffort.fastest(metres: metres, in: points.map { (seconds: $0.0, metres: $0.1) })
        if let expected {
            #expect(abs((result ?? .infinity) - expected) < 1e-9, "got \(String(describing: result))")
        } else {
            #expect(result == nil)
        }
    }
}

@Suite("History")
struct HistoryTests {
    @Test("weeks start on Monday", arguments: [
        ((1970, 1, 1), (1969, 12, 29)),   // a Thursday
        ((1970, 1, 5), (1970, 1, 5)),     // a Monday
        ((2026, 4, 22), (2026, 4, 20)),   // a Wednesday
        ((2026, 4, 26), (2026, 4, 20)),   // a Sunday
    ])
    func monday(date: (Int, Int, Int), monday: (Int, Int, Int)) {
        let day = UTCTime(year: date.0, month: date.1, day: date.2, secondsOfDayMilli: 0).day
        let expected = UTCTime(year: monday.0, month: monday.1, day: monday.2, secondsOfDayMilli: 0).day
        #expect(History.monday(of: day) == expected)
    }

    @Test("weekly totals count sessions in their week and show empty weeks")
    func weeks() async throws {
        let folder = try TemporaryStoreFolder()
        _ = try await Samples.recordDemo(into: folder.location)
        _ = try await Samples.recordDemo(into: folder.location)
        let history = History(store: try RunWalkStore(location: folder.location))
        // demo-short starts on 2026-04-21 (a Tuesday); look from the following Monday.
        let weeks = try history.weeks(count: 3, now: UTCTime(year: 2026, month: 4, day: 27, secondsOfDayMilli: 0))
        #expect(weeks.map(\.sessions) == [0, 2, 0])
        #expect(weeks[1].mondayDay == UTCTime(year: 2026, month: 4, day: 20, secondsOfDayMilli: 0).day)
        let one = try #require(try history.sessions().first)
        #expect(abs(weeks[1].distanceMetres - 2 * (one.distanceMetres ?? 0)) < 1e-6)
        #expect(weeks[1].durationSeconds == 480)
    }

    @Test("records set by a run: better than every earlier session, or the first of their kind")
    func recordsSet() async throws {
        let folder = try TemporaryStoreFolder()
        _ = try await Samples.recordDemo(into: folder.location)
        _ = try await Samples.recordDemo(into: folder.location)
        _ = try await Samples.recordDemo(into: folder.location, workout: "1m warmup, 2m run, 1m cooldown")
        let history = History(store: try RunWalkStore(location: folder.location))
        let ids = try history.sessions().map(\.id).sorted()
        try #require(ids.count == 3)
        // The first run holds every record it has a value for.
        #expect(try history.recordsSet(by: ids[0]).map(\.name) == ["longest run", "longest run interval"])
        // The same run again only equals them: no record.
        #expect(try history.recordsSet(by: ids[1]).isEmpty)
        // A two-minute run interval beats the 30-second ones.
        let third = try history.recordsSet(by: ids[2])
        #expect(third.map(\.name) == ["longest run interval"])
        #expect(third.first?.seconds == 120)
    }
}
