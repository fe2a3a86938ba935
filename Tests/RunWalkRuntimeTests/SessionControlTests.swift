import Foundation
import RunWalkCore
import RunWalkRuntime
import Testing

@Suite("SessionControl")
struct SessionControlTests {
    @Test("commands arrive in order; observers see the latest status at once and every later one")
    func commandsAndStatus() async throws {
        let control = SessionControl()
        control.send(.pause)
        control.send(.skip)
        control.finish()
        var received: [SessionCommand] = []
        for await command in control.commands { received.append(command) }
        #expect(received == [.pause, .skip])

        let seen = Seen()
        control.publish(SessionStatus(workout: "1m run", stage: .waitingForFix, phaseCount: 1))
        let token = control.observe { seen.add($0.stage) }
        control.publish(SessionStatus(workout: "1m run", stage: .running, phaseCount: 1))
        control.removeObserver(token)
        control.publish(SessionStatus(workout: "1m run", stage: .completed, phaseCount: 1))
        #expect(seen.stages == [.waitingForFix, .running])
        #expect(control.status?.stage == .completed)
    }

    @Test("status JSON uses the documented snake_case keys")
    func statusJSON() throws {
        let status = SessionStatus(workout: "1m run", stage: .running, phase: .init(index: 0, kind: .run, plannedSeconds: 60, plannedMetres: nil),
                                   phaseCount: 1, phaseRemainingSeconds: 42, gps: .init(state: .fix, accuracyMetres: 3.5, satellites: 9))
        let json = String(decoding: try JSONEncoder().encode(status), as: UTF8.self)
        for key in ["\"phase_remaining_s\":42", "\"phase_count\":1", "\"accuracy_m\":3.5", "\"stage\":\"running\"", "\"planned_s\":60"] {
            #expect(json.contains(key), "\(key) in \(json)")
        }
        #expect(try JSONDecoder().decode(SessionStatus.self, from: Data(json.utf8)) == status)
    }
}

private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [SessionStatus.Stage] = []
    func add(_ stage: SessionStatus.Stage) { lock.withLock { all.append(stage) } }
    var stages: [SessionStatus.Stage] { lock.withLock { all } }
}
