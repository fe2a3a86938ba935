import Foundation
import RunWalkCore
import RunWalkRuntime
import RunWalkTestSupport
import Testing

/// Commands a session would receive, collected for a test to wait on.
final class CommandLog: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [SessionCommand] = []

    init(_ control: SessionControl) {
        Task { [self] in
            for await command in control.commands { lock.withLock { received.append(command) } }
        }
    }

    var commands: [SessionCommand] { lock.withLock { received } }

    /// Waits (up to `seconds`) until `command` has arrived.
    /// Async, so the waiting test gives its thread back to the pool the stream's task runs on.
    func waitFor(_ command: SessionCommand, seconds: Double = 30) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if commands.contains(command) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return commands.contains(command)
    }
}

/// Waits (up to `seconds`: generous, the whole suite runs in parallel on 2 cores) until `condition` holds, giving the thread back to the pool meanwhile.
func eventually(seconds: Double = 30, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return try condition()
}

/// A status in phase `index` (0-based) of a 5-phase workout.
func runningStatus(index: Int = 2, kind: PhaseKind = .run, planned: Double = 90, elapsed: Double = 18,
                   paused: Bool = false) -> SessionStatus {
    SessionStatus(workout: "5m warmup, 2x(90s run, 60s walk), 5m cooldown", stage: paused ? .paused : .running, paused: paused,
                  phase: .init(index: index, kind: kind, plannedSeconds: planned, plannedMetres: nil), phaseCount: 5,
                  phaseElapsedSeconds: elapsed, phaseRemainingSeconds: planned - elapsed)
}

/// Whether the D-Bus tools are here; in CI (CI=true) they must be, so a missing one fails instead of skipping.
func busToolsPresent(_ tools: [String]) -> Bool {
    let missing = tools.filter { !FileManager.default.isExecutableFile(atPath: $0) }
    if missing.isEmpty { return true }
    if ProcessInfo.processInfo.environment["CI"] == "true" {
        Issue.record("missing in CI: \(missing.joined(separator: ", ")) (scripts/test installs them)")
    }
    return false
}
