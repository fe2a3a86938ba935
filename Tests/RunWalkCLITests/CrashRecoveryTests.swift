import Foundation
import Testing
import RunWalkStore

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
        var generator = SystemRandomNumberGenerator()
        var worstWallLoss = 0.0
        var losses: [Double] = []
        for repetition in 1...Self.repetitions {
            let process = folder.process(["replay", Sample.demo, "--workout", Sample.demoWorkout, "--speed", String(Self.speed)])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
            let delay = Double.random(in: 0.3...1.2, using: &generator)
            usleep(useconds_t(delay * 1_000_000))
            let killedAt = Date()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "repetition \(repetition): the replay ended before the kill")

            // Any command finds the session and closes it.
            let next = try folder.run(["history"])
            #expect(next.status == 0)
            #expect(next.stderr.contains("runwalk: recovered session \(repetition) "), "repetition \(repetition): \(next.stderr)")

            let store = try RunWalkStore(location: folder.location, create: false)
            let session = try store.loadSession(.id(Int64(repetition)))
            #expect(session.info.state == "interrupted")
            #expect(session.summary.state == "interrupted")
            let lastFix = try #require(try store.lastFixSeconds(sessionID: Int64(repetition)), "repetition \(repetition): no fix kept")
            // Every epoch of demo-short is one second apart from t = 0: all of them up to the last are there.
            #expect(try store.fixCount(sessionID: Int64(repetition)) == Int(lastFix.rounded()) + 1)
            // Recording began before the replay's first fix, so this overstates the loss, never understates it.
            let wallSinceStart = killedAt.timeIntervalSince1970 - Double(session.info.recordedWall.milliseconds) / 1000
            let wallLoss = wallSinceStart - lastFix / Self.speed
            losses.append(wallLoss)
            worstWallLoss = max(worstWallLoss, wallLoss)
            #expect(wallLoss <= 1.0, "repetition \(repetition): lost \(wallLoss) s of wall time (\(wallLoss * Self.speed) track-s)")
            #expect(try store.integrityCheck() == "ok")
        }
        let sorted = losses.sorted()
        print("crash recovery: \(Self.repetitions) kills at --speed \(Self.speed): worst loss \(String(format: "%.3f", worstWallLoss)) s wall "
              + "= \(String(format: "%.1f", worstWallLoss * Self.speed)) track-s; median \(String(format: "%.3f", sorted[sorted.count / 2])) s wall")
        let history = try folder.run(["history"])
        #expect(history.stdout.components(separatedBy: "interrupted").count - 1 == Self.repetitions)
    }
}
