import Foundation
import Testing
import RunWalkStore

/// Several `runwalk` processes on one store at once: one writer at a time (BEGIN IMMEDIATE and
/// the 5 s busy timeout), readers beside them in WAL mode; nothing lost, nothing refused.
@Suite("concurrent recorded replays and reads on one store (end to end)", .serialized)
struct ConcurrentStoreTests {
    @Test("8 recorded replays started together on a new store, with history read beside them")
    func concurrentReplays() throws {
        let folder = try TemporaryDataFolder("runwalk-concurrent")
        let count = 8
        let replays = (0..<count).map { _ in
            let process = folder.process(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--json"])
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            return (process, errors)
        }
        for (process, _) in replays { try process.run() }
        var reads = 0
        var readFailures: [String] = []
        while replays.contains(where: { $0.0.isRunning }) {
            guard folder.location.databaseExists else { continue }
            let history = try folder.run(["history"])
            reads += 1
            // Before the first session row is committed history may find none; never an error.
            if history.status != 0, !history.stderr.contains("no sessions recorded yet") { readFailures.append(history.stderr) }
        }
        for (process, errors) in replays {
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "\(stderr)")
            #expect(!stderr.contains("SQLite error"), "\(stderr)")
        }
        #expect(readFailures.isEmpty, "\(readFailures)")
        let store = try RunWalkStore(location: folder.location, create: false)
        let sessions = try store.sessions()
        #expect(sessions.count == count, "\(reads) reads beside the replays")
        #expect(sessions.allSatisfy { $0.state == "completed" })
        #expect(Set(try sessions.map { try store.fixCount(sessionID: $0.id) }).count == 1, "every session has all its fixes")
        #expect(try store.integrityCheck() == "ok")
    }
}
