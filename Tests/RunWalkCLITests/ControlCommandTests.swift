import Foundation
import RunWalkCore
import RunWalkHost
import RunWalkIO
import RunWalkRuntime
import Testing

/// `runwalk control` end to end: the built binary against a ControlServer inside the test.
@Suite("runwalk control (end to end)")
struct ControlCommandTests {
    static let phase3 = SessionStatus.Phase(index: 2, kind: .run, plannedSeconds: 90, plannedMetres: nil)
    static let phase4 = SessionStatus.Phase(index: 3, kind: .walk, plannedSeconds: 60, plannedMetres: nil)
    static let running = SessionStatus(
        workout: "5m warmup, 3x(90s run, 60s walk), 5m cooldown", stage: .running, phase: phase3, phaseCount: 8, next: phase4,
        phaseElapsedSeconds: 18, phaseRemainingSeconds: 72, phaseProgress: 0.2, workoutElapsedSeconds: 500,
        elapsedSeconds: 510, distanceMetres: 2310, currentPaceSecondsPerKm: 340, averagePaceSecondsPerKm: 360,
        gps: .init(state: .fix, accuracyMetres: 3.2, satellites: 9))
    static var skipped: SessionStatus {
        var status = running
        status.phase = phase4
        status.next = nil
        status.phaseElapsedSeconds = 0
        status.phaseRemainingSeconds = 60
        return status
    }

    @Test("with no session running: the message on standard error, exit 1, and nothing created")
    func noSession() throws {
        let scratch = try ControlScratch()
        defer { scratch.remove() }
        let viaOverride = try RunWalkBinary.run(["control", "status"],
                                                environment: [ControlSocketPath.overrideVariable: scratch.path + "/none.sock"])
        #expect(viaOverride.status == 1)
        #expect(viaOverride.stderr == "runwalk: no session is running\n")
        #expect(viaOverride.stdout.isEmpty)
        let viaRuntimeDir = try RunWalkBinary.run(["control", "pause"],
                                                  environment: ["XDG_RUNTIME_DIR": scratch.path, ControlSocketPath.overrideVariable: ""])
        #expect(viaRuntimeDir.status == 1)
        #expect(viaRuntimeDir.stderr == "runwalk: no session is running\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/runwalk"), "the client creates no folder")
    }

    @Test("status --json prints the session's status JSON alone; status prints the line")
    func statusJSON() throws {
        let scratch = try ControlScratch()
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        let control = SessionControl()
        control.publish(Self.running)
        let server = ControlServer(control: control, path: path)
        #expect(try server.start() == .listening)
        defer { server.stop() }

        let json = try RunWalkBinary.run(["control", "status", "--json"], environment: [ControlSocketPath.overrideVariable: path])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.isEmpty, "\(json.stderr)")
        #expect(try JSONDecoder().decode(SessionStatus.self, from: Data(json.stdout.utf8)) == Self.running)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["phase_remaining_s"] as? Double == 72)
        #expect(object["stage"] as? String == "running")

        let line = try RunWalkBinary.run(["control", "status"], environment: [ControlSocketPath.overrideVariable: path])
        #expect(line.status == 0, "\(line.stderr)")
        #expect(line.stdout == "run 3/8 · 1:12 left · 2.31 km · 5:40 /km · GPS fix ±3 m, 9 sats\n")
    }

    @Test("skip reaches the SessionControl and the confirmation shows the next phase; a bad action exits 2")
    func skip() async throws {
        let scratch = try ControlScratch()
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        let control = SessionControl()
        control.publish(Self.running)
        let received = Received()
        // The session stand-in runs on its own queue, so blocked pool threads cannot starve it.
        let session = Task(executorPreference: StandInExecutor.shared) {
            for await command in control.commands {
                received.add(command)
                if command == .skip { control.publish(Self.skipped) }
            }
        }
        let server = ControlServer(control: control, path: path)
        #expect(try server.start() == .listening)
        defer { server.stop() }

        let result = try RunWalkBinary.run(["control", "skip"], environment: [ControlSocketPath.overrideVariable: path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "skipped: walk 4/8 · 1:00 left · 2.31 km · 5:40 /km · GPS fix ±3 m, 9 sats\n")
        let bad = try RunWalkBinary.run(["control", "jump"], environment: [ControlSocketPath.overrideVariable: path])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("jump"), "\(bad.stderr)")
        control.finish()
        await session.value
        #expect(received.commands == [.skip])
    }
}

/// A short scratch folder under /tmp (socket paths must stay under 108 bytes).
private struct ControlScratch {
    let path: String

    init() throws {
        path = "/tmp/rwcli-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [SessionCommand] = []
    func add(_ command: SessionCommand) { lock.withLock { seen.append(command) } }
    var commands: [SessionCommand] { lock.withLock { seen } }
}

/// Runs tasks on one serial dispatch queue, outside Swift's cooperative pool.
private final class StandInExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = StandInExecutor()
    private let queue = DispatchQueue(label: "control-cli-tests.stand-in")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
