import Foundation
import Testing
import RunWalkCore
@testable import RunWalkStore

/// The store's errors are data: SQLite's code and the SQL it ran are kept, and what a caller
/// asks of an error (full? damaged?) comes from the code, never from the words.
@Suite("StoreError")
struct StoreErrorTests {
    @Test("a refused statement keeps SQLite's code, its message and the SQL; the runner's message is as before")
    func keepsCodeAndSQL() throws {
        let folder = try TemporaryStoreFolder()
        let store = try RunWalkStore(location: folder.location)
        let sql = "INSERT INTO no_such_table VALUES (1)"
        let error = try #require(throws: StoreError.self) { try store.write { db in try db.execute(sql) } }
        guard case .sqlite(let failure, let path) = error else {
            Issue.record("not an SQLite error: \(error)")
            return
        }
        #expect(failure.resultCode == 1, "SQLITE_ERROR")
        #expect(failure.sql == sql)
        #expect(failure.message == "no such table: no_such_table")
        #expect(path == folder.location.databasePath)
        #expect(error.description == "\(UserText.path(folder.location.databasePath)): SQLite error 1: no such table: no_such_table")
        #expect(failure.debugDescription.hasSuffix("while executing `\(sql)`"))
        #expect(!error.isDiskFull && !error.isCorrupt)
    }

    @Test("a full database is SQLITE_FULL by its code", arguments: [13, 13 | (1 << 8)] as [Int32])
    func diskFull(code: Int32) {
        let error = StoreError.sqlite(SQLiteError(extendedCode: code, message: "database or disk is full"), path: "/d/runwalk.sqlite")
        #expect(error.isDiskFull)
        #expect(!error.isCorrupt)
        #expect(error.reason == "SQLite error 13: database or disk is full")
    }

    @Test("damage is SQLITE_CORRUPT or SQLITE_NOTADB by the code (extended codes too), or a failed quick_check",
          arguments: [11, 11 | (1 << 8), 26] as [Int32])
    func corrupt(code: Int32) {
        #expect(StoreError.sqlite(SQLiteError(extendedCode: code, message: "whatever SQLite says"), path: "/d/x").isCorrupt)
    }

    @Test("words are never looked into: a failure that merely mentions damage or SQLite's codes is neither")
    func wordsAreNotCodes() {
        let words = StoreError.failed("SQLite error 11: database disk image is malformed; SQLite error 13", path: "/d/runwalk.sqlite")
        #expect(!words.isCorrupt)
        #expect(!words.isDiskFull)
        #expect(words.description == "/d/runwalk.sqlite: SQLite error 11: database disk image is malformed; SQLite error 13")
        let damaged = StoreError.damaged(path: "/d/runwalk.sqlite", finding: "*** in database main ***")
        #expect(damaged.isCorrupt)
    }

    @Test("a salvage holding the store is said as before")
    func beingSalvaged() {
        let error = StoreError.beingSalvaged(path: "/d/runwalk.sqlite")
        #expect(error.reason == "the store is being salvaged by `runwalk recover --salvage`")
        #expect(error.description == "/d/runwalk.sqlite: the store is being salvaged by `runwalk recover --salvage`")
    }
}

/// A stored session's state is a type: recording, or closed with its outcome.
@Suite("StoredSessionState")
struct StoredSessionStateTests {
    @Test("the stored words and the states map both ways", arguments: [
        ("recording", StoredSessionState.recording), ("completed", .closed(.completed)), ("stopped", .closed(.stopped)),
        ("incomplete", .closed(.incomplete)), ("interrupted", .closed(.interrupted)), ("bench", .unknown("bench")),
    ])
    func roundTrip(word: String, state: StoredSessionState) {
        #expect(StoredSessionState(rawValue: word) == state)
        #expect(state.rawValue == word)
        #expect(state.isRecording == (word == "recording"))
    }

    @Test("a store's sessions carry their state: recording while recorded, the outcome once closed")
    func fromTheStore() throws {
        let folder = try TemporaryStoreFolder()
        let store = try RunWalkStore(location: folder.location)
        for (id, state) in [(1, "recording"), (2, "stopped")] {
            try store.write { db in
                try db.execute("""
                    INSERT INTO sessions (id, workout_spec, source, units, get_ready_s, recorded_wall_ms, state)
                    VALUES (?, '1m run', 'test', 'metric', 0, 0, ?)
                    """, [Int64(id), state])
            }
        }
        #expect(try store.sessions().map(\.state).sorted { $0.rawValue < $1.rawValue } == [.recording, .closed(.stopped)])
    }
}
