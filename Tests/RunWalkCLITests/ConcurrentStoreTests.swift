import Foundation
import Testing
import RunWalkStore
import RunWalkTestSupport

/// Several `runwalk` processes on one store at once: one writer at a time (BEGIN IMMEDIATE and
/// the 5 s busy timeout), readers beside them in WAL mode; nothing lost, nothing refused.
@Suite("concurrent recorded replays and reads on one store (end to end)", .serialized)
struct ConcurrentStoreTests {
    @Test("8 recorded replays started together on a new store, with history read beside them")
    func concurrentReplays() throws {
        let folder = try TemporaryDataFolder("runwalk-concurrent")
        let count = 8
        let replays = try (0..<count).map { _ in
            try folder.process(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--json"]).start()
        }
        defer { replays.forEach { $0.stop() } }
        var reads = 0
        var readFailures: [String] = []
        let deadline = Date().addingTimeInterval(300)
        while replays.contains(where: { $0.isRunning }) && Date() < deadline {
            guard folder.location.databaseExists else { continue }
            let history = try folder.run(["history"])
            reads += 1
            // Before the first session row is committed history may find none; never an error.
            if history.status != 0, !history.stderr.contains("no sessions recorded yet") { readFailures.append(history.stderr) }
        }
        for process in replays {
            let status = process.wait(seconds: 10)
            #expect(status == 0, "\(process.stderr)")
            #expect(!process.stderr.contains("SQLite error"), "\(process.stderr)")
        }
        #expect(readFailures.isEmpty, "\(readFailures)")
        let store = try RunWalkStore(location: folder.location, create: false)
        let sessions = try store.sessions()
        #expect(sessions.count == count, "\(reads) reads beside the replays")
        #expect(sessions.allSatisfy { $0.state == .closed(.completed) })
        #expect(Set(try sessions.map { try store.fixCount(sessionID: $0.id) }).count == 1, "every session has all its fixes")
        #expect(try store.integrityCheck() == "ok")
    }
}
