import Testing
@testable import RunWalkTerminal
import RunWalkCore
import RunWalkRuntime

/// Issue 33: the band and below/in/above on the terminal view.
@Suite("Terminal target line")
struct TargetLineTests {
    @Test("a running phase with a band shows it and where the runner is, in words")
    func targetLine() {
        var status = SessionStatus(workout: "w", stage: .running, phaseCount: 2)
        status.phase = .init(index: 0, kind: .run, plannedSeconds: 90, plannedMetres: nil)
        status.phaseRemainingSeconds = 60
        status.currentPaceSecondsPerKm = 420
        status.gps = .init(state: .fix, satellites: 9)
        status.target = PhaseTargetBand(.pace(fastestSecondsPerKm: 360, slowestSecondsPerKm: 390, unit: .km))
        status.targetState = .below
        let frame = TerminalScreen.render(status: status, columns: 60, rows: 24, colour: false)
        #expect(frame.contains { $0.contains("Target 6:00-6:30/km · below (slower)") }, "\(frame.joined(separator: "\n"))")
        status.target = nil
        let plain = TerminalScreen.render(status: status, columns: 60, rows: 24, colour: false)
        #expect(!plain.contains { $0.contains("Target") })
    }

    @Test("a phase that ends on the heart rate shows its time so far, not a countdown to nothing")
    func untilPhase() {
        var status = SessionStatus(workout: "w", stage: .running, phaseCount: 2)
        status.phase = .init(index: 0, kind: .run, plannedSeconds: nil, plannedMetres: nil)
        status.phaseElapsedSeconds = 75
        let frame = TerminalScreen.render(status: status, columns: 60, rows: 24, colour: false)
        #expect(frame.contains { $0.contains("until the heart rate") }, "\(frame.joined(separator: "\n"))")
    }
}
