import Foundation
import Testing
import RunWalkStore
import RunWalkTestSupport

/// SIGKILL during a paced replay, then any `runwalk` command: the session is recovered with
/// every fix up to (at most) one second before the kill.
@Suite("crash recovery (end to end)", .serialized)
struct CrashRecoveryTests {
    /// demo-short (1 Hz, 250 s) at 20x: 20 fixes per wall second, real writes, done in 12.5 s if not killed.
    static let speed = 20.0
    static let repetitions = 20

    @Test("SIGKILL at a random moment loses at most 1 s of fixes, 20 times over")
    func killAndRecover() throws {
        let folder = try TemporaryDataFolder("runwalk-kill")
        var losses: [Double] = []
        for repetition in 1...Self.repetitions {
            let loss = try killOnce(folder: folder, repetition: repetition, speed: Self.speed, delaySeconds: 0.3...1.2)
            losses.append(loss)
        }
        let sorted = losses.sorted()
        let worst = sorted.last ?? 0
        print("crash recovery: \(Self.repetitions) kills at --speed \(Self.speed): worst loss \(String(format: "%.3f", worst)) s wall "
              + "= \(String(format: "%.1f", worst * Self.speed)) track-s; median \(String(format: "%.3f", sorted[sorted.count / 2])) s wall")
        let recorded = try RunWalkStore(location: folder.location, create: false).sessions()
        #expect(recorded.allSatisfy { $0.state == .closed(.interrupted) })
        print("crash recovery: \(recorded.count) of \(Self.repetitions) kills came after the session's first commit")
        let history = try folder.run(["history"])
        #expect(history.stdout.components(separatedBy: "interrupted").count - 1 == recorded.count)
    }

    @Test("SIGKILL during a real-time replay (--speed 1) loses at most 1 s")
    func killAtRealTime() throws {
        let folder = try TemporaryDataFolder("runwalk-kill-1x")
        let loss = try killOnce(folder: folder, repetition: 1, speed: 1, delaySeconds: 1.5...3.0)
        print("crash recovery at --speed 1: loss \(String(format: "%.3f", loss)) s")
    }

    @Test("a session still being recorded by a live process is not recovered by another command")
    func liveSessionLeftAlone() throws {
        let folder = try TemporaryDataFolder("runwalk-live")
        let process = try folder.process(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--speed", "100"]).start()
        defer { process.stop() }
        usleep(800_000)
        let meanwhile = try folder.run(["history"])
        #expect(process.isRunning, "the replay should still run (2.5 s at 100x)")
        #expect(!meanwhile.stderr.contains("recovered"), "\(meanwhile.stderr)")
        #expect(meanwhile.stdout.contains("recording"))
        #expect(process.wait(seconds: 60) == 0, "\(process.stderr)")
        let store = try RunWalkStore(location: folder.location, create: false)
        #expect(try store.loadSession(.last).info.state == .closed(.completed))
    }

    /// Starts a paced replay, kills it after a random delay, runs `runwalk history`, and returns
    /// how long (wall seconds) before the kill the first fix missing from the store was read.
    private func killOnce(folder: TemporaryDataFolder, repetition: Int, speed: Double, delaySeconds: ClosedRange<Double>) throws -> Double {
        let before = (try RunWalkStore.openIfPresent(location: folder.location)?.sessions().first?.id) ?? 0
        let launched = Date()
        let process = try folder.process(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--speed", String(speed)]).start()
        defer { process.stop() }
        var generator = SystemRandomNumberGenerator()
        usleep(useconds_t(Double.random(in: delaySeconds, using: &generator) * 1_000_000))
        let killedAt = Date()
        kill(process.pid, SIGKILL)
        _ = process.wait(seconds: 30)
        #expect(process.terminationSignal == SIGKILL, "repetition \(repetition): the replay ended before the kill")

        // Any command finds the session and closes it.
        let next = try folder.run(["history"])
        #expect(next.status == 0)
        let store = try RunWalkStore.openIfPresent(location: folder.location)
        guard let store, let id = try store.sessions().first?.id, id > before else {
            // Killed before the session's first commit: then nothing read more than 1 s before the kill may be missing.
            let sinceLaunch = killedAt.timeIntervalSince(launched)
            #expect(sinceLaunch <= 1.0, "repetition \(repetition): no session recorded \(sinceLaunch) s after launch")
            return sinceLaunch
        }
        let session = Int(id)
        #expect(next.stderr.contains("runwalk: recovered session \(session) "), "session \(session): \(next.stderr)")
        let stored = try store.loadSession(.id(id))
        #expect(stored.info.state == .closed(.interrupted))
        #expect(stored.summary.state == .interrupted)
        // No fix stored yet counts as "the last one was t = -1": then the loss runs from the first fix on.
        let lastFix = try store.lastFixSeconds(sessionID: id) ?? -1
        // Every epoch of demo-short is one second apart from t = 0: all of them up to the last are there.
        #expect(try store.fixCount(sessionID: id) == Int(lastFix.rounded()) + 1)
        // The loss is how long before the kill the first missing fix (lastFix + 1 s of track) was read:
        // fix t is read `t / speed` after the replay's start. Recording began a little before the
        // first fix was read, so this overstates the loss, never understates it.
        let wallSinceStart = killedAt.timeIntervalSince1970 - Double(stored.info.recordedWall.milliseconds) / 1000
        let wallLoss = max(0, wallSinceStart - (lastFix + 1) / speed)
        #expect(wallLoss <= 1.0, "session \(session): lost \(wallLoss) s of wall time (\(wallLoss * speed) track-s)")
        #expect(try store.integrityCheck() == "ok")
        return wallLoss
    }
}
