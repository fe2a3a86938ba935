import Foundation
import Testing
@testable import RunWalkStore
import RunWalkCore

/// A database recorded by the build that used GRDB 7.10 (Tests/Fixtures/grdb-7.10, its README
/// says how it was made) read by the store's own SQLite layer: not migrated again, the same
/// schema as a new database, and the same sessions, plan and labels the old build showed.
@Suite("a database written by the GRDB build")
struct GRDBDatabaseTests {
    static let fixture = Samples.root.appendingPathComponent("Tests/Fixtures/grdb-7.10")

    /// A private copy of the fixture database in a new data folder.
    static func copy() throws -> TemporaryStoreFolder {
        let folder = try TemporaryStoreFolder()
        chmod(folder.url.path, 0o700)
        let target = folder.location.databasePath
        try FileManager.default.copyItem(atPath: fixture.appendingPathComponent("runwalk.sqlite").path, toPath: target)
        chmod(target, 0o600)
        return folder
    }

    @Test("once migrated to v3 (heart rate), it opens read-only without a migration, and reads the sessions, summaries and track the old build showed")
    func readsTheSame() throws {
        let folder = try Self.copy()
        // From before the heart-rate table: opening for reading migrates it once (read-write).
        let first = try #require(try RunWalkStore.openForReading(location: folder.location))
        #expect(!first.readOnly, "v3-heart-rate to apply")
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.location.databasePath))
        let store = try #require(try RunWalkStore.openForReading(location: folder.location))
        #expect(store.readOnly, "every migration is recorded in grdb_migrations: nothing to migrate")
        #expect(try store.appliedMigrations() == ["v1-sessions-phases-fixes-cues-events", "v2-plans-session-names", "v3-heart-rate"])

        let sessions = try store.sessions()
        #expect(sessions.map(\.id) == [2, 1])
        #expect(sessions.map(\.state) == [.closed(.completed), .closed(.incomplete)])
        #expect(sessions.map(\.source) == ["replay:SampleTracks/demo-short.nmea", "replay:demo-first-minute.nmea"])
        #expect(sessions.map(\.workout) == ["1m warmup, 2x(30s run, 30s walk), 1m cooldown", "5m warmup, 8x(60s run, 90s walk), 5m cooldown"])
        #expect(sessions.map(\.distanceMetres) == [417.8, 97.35])
        #expect(sessions.map(\.durationSeconds) == [220.0, 62.0])
        #expect(sessions.map { $0.startUTC?.milliseconds } == [1_776_798_000_000, 1_776_798_000_000])
        #expect(sessions.map(\.recordedWall.milliseconds) == [1_795_630_695_667, 1_795_630_695_571])

        // `runwalk report 2 --format json` of the old build printed exactly the stored summary.
        let expected = try String(contentsOf: Self.fixture.appendingPathComponent("report2.json"), encoding: .utf8)
        let session = try store.loadSession(.id(2))
        #expect(session.summaryJSON + "\n" == expected || session.summaryJSON == expected)
        #expect(session.summary.distanceMetres == 417.8)
        #expect(session.summary.events?.map(\.kind.rawValue) == ["start", "skip", "pause", "resume", "completed"])
        #expect(session.trackPoints.count == 221)
        let last = try #require(session.trackPoints.last)
        #expect(last.elapsedSeconds == 230.0 && last.time.milliseconds == 1_776_798_230_000)
        // The sqlite3 shell's 15 digits.
        #expect(abs(last.latitude - 47.3575542066512) < 1e-12 && abs(last.longitude - 8.55175917577566) < 1e-12)
        #expect(abs(last.distanceMetres - 417.801748652321) < 1e-9 && last.altitudeMSL == 407.3)
        #expect(last.phaseIndex == 5 && !last.afterGap)
        #expect(abs(session.trackPoints.reduce(0) { $0 + $1.latitude } - 10465.7800931296) < 1e-6)
        #expect(try store.fixCount(sessionID: 2) == 231)

        let records = try History(store: store).records()
        #expect(records.longestRun?.sessionID == 2 && records.longestRun?.metres == 417.8)
        #expect(records.longestRunInterval?.seconds == 30 && records.longestRunInterval?.sessionID == 2)
        #expect(records.fastest1km == nil && records.fastest5km == nil)

        let labels = try store.sessionLabels()
        #expect(labels.count == 1 && labels[2]?.name == "Evening demo" && labels[2]?.note == "pause and skip, ünïcode ✓")
        let enrolment = try #require(try store.activeEnrolment())
        #expect(enrolment.enrolment.planName == "c25k" && enrolment.state == "active")
        #expect(enrolment.enrolment.startDay.daysSinceEpoch == 20563 && enrolment.enrolment.weekdays.map(\.rawValue) == ["mon", "wed", "sat"])
        #expect(enrolment.log.map(\.kind.rawValue) == ["short"] && enrolment.log.first?.sessionID == 1)
        #expect(try store.planDaysBySession()[1]?.plan == "c25k")

        let after = try Data(contentsOf: URL(fileURLWithPath: folder.location.databasePath))
        #expect(before == after, "reading changed the file")
    }

    @Test("opened for writing it is not migrated again, has a new database's schema, and takes new sessions")
    func writesOn() async throws {
        let folder = try Self.copy()
        let store = try RunWalkStore(location: folder.location)
        #expect(try store.read { try $0.values(String.self, "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
                == ["v1-sessions-phases-fixes-cues-events", "v2-plans-session-names", "v3-heart-rate"])
        #expect(try store.journalMode() == "wal")

        let fresh = try TemporaryStoreFolder()
        let new = try RunWalkStore(location: fresh.location)
        let schema = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
        let old = try store.read { try $0.rows(schema).map { $0.values } }
        #expect(try new.read { try $0.rows(schema).map { $0.values } } == old, "the migrations' SQL is GRDB's, byte for byte")

        let (result, _, outcome, json) = try await Samples.recordDemo(into: folder.location)
        #expect(outcome.sessionID == 3 && outcome.rowsLost == 0)
        let loaded = try store.loadSession(.last)
        #expect(loaded.summaryJSON == json && loaded.summary.distanceMetres == result.summary.distanceMetres)
        #expect(try store.sessions().map(\.id) == [3, 2, 1])
        // Deleting the plan's session cascades to its plan log entry (foreign keys are on).
        #expect(try store.deleteSession(id: 1))
        #expect(try store.activeEnrolment()?.log.isEmpty == true)
        #expect(try store.quickCheck() == "ok")
    }
}
