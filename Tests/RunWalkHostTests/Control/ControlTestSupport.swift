import Foundation
import RunWalkCore
import RunWalkRuntime
@testable import RunWalkHost
import RunWalkIO

/// A private folder under /tmp (socket paths must stay under 108 bytes), removed by `remove()`.
struct ScratchFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/rwctl-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = String(cString: made)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The permission bits and file type of `path` (lstat), nil when absent.
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : nil
    }
}

/// Statuses a test publishes by hand.
enum SampleStatus {
    static let phase3 = SessionStatus.Phase(index: 2, kind: .run, plannedSeconds: 90, plannedMetres: nil)
    static let phase4 = SessionStatus.Phase(index: 3, kind: .walk, plannedSeconds: 60, plannedMetres: nil)

    /// Run 3 of 8, 1:12 left, 2.31 km at 5:40 /km, a good fix.
    static var running: SessionStatus {
        SessionStatus(workout: "5m warmup, 3x(90s run, 60s walk), 5m cooldown", stage: .running, phase: phase3, phaseCount: 8,
                      next: phase4, phaseElapsedSeconds: 18, phaseRemainingSeconds: 72, phaseProgress: 0.2,
                      workoutElapsedSeconds: 500, workoutRemainingSeconds: 900, workoutProgress: 0.35, elapsedSeconds: 510,
                      distanceMetres: 2310, currentPaceSecondsPerKm: 340, averagePaceSecondsPerKm: 360,
                      gps: .init(state: .fix, accuracyMetres: 3.2, satellites: 9))
    }

    static var paused: SessionStatus {
        var status = running
        status.stage = .paused
        status.paused = true
        return status
    }

    static var skipped: SessionStatus {
        var status = running
        status.phase = phase4
        status.next = nil
        status.phaseElapsedSeconds = 0
        status.phaseRemainingSeconds = 60
        return status
    }
}

/// Runs a blocking client call off the cooperative pool, so a session stand-in on the pool can answer.
func ask(_ client: ControlClient, _ request: ControlRequest) async throws -> ControlResponse {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            do { continuation.resume(returning: try client.send(request)) } catch { continuation.resume(throwing: error) }
        }
    }
}

/// Sends raw bytes to the socket and returns the raw answer line (or nil when the server closed without one).
func rawExchange(_ path: String, _ bytes: [UInt8], shutdownWrite: Bool = false) throws -> String? {
    let fd = try UnixSocket.connect(to: path).get()
    defer { close(fd) }
    _ = UnixSocket.writeAll(fd, bytes)
    if shutdownWrite { shutdown(fd, Int32(SHUT_WR)) }
    switch UnixSocket.readLine(fd, limit: 1 << 16, timeoutSeconds: 10) {
    case .line(let answer): return String(decoding: answer, as: UTF8.self)
    case .endOfFile(let answer): return answer.isEmpty ? nil : String(decoding: answer, as: UTF8.self)
    default: return nil
    }
}

/// A session stand-in: reads commands and publishes the status each one leads to, remembering them.
final class SessionStandIn: @unchecked Sendable {
    let control = SessionControl()
    private let lock = NSLock()
    private var seen: [SessionCommand] = []
    private var task: Task<Void, Never>?

    init(initial: SessionStatus?, respond: @escaping @Sendable (SessionCommand) -> SessionStatus?) {
        if let initial { control.publish(initial) }
        let control = control
        // On its own queue, not the cooperative pool: tests that block pool threads (running
        // binaries, waiting on sockets) must not starve the stand-in that answers them.
        task = Task(executorPreference: QueueExecutor.shared) { [weak self] in
            for await command in control.commands {
                self?.lock.withLock { self?.seen.append(command) }
                if let status = respond(command) { control.publish(status) }
            }
        }
    }

    var commands: [SessionCommand] { lock.withLock { seen } }

    /// Ends the command stream and waits for the reader, so `commands` is complete.
    func finish() async {
        control.finish()
        await task?.value
    }
}

/// Runs tasks on one serial dispatch queue, outside Swift's cooperative pool.
final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = QueueExecutor()
    private let queue = DispatchQueue(label: "control-tests.stand-in")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
