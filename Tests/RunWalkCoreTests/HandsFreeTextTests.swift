import RunWalkCore
import Testing

@Suite("PhaseTitle: lock-screen titles and notification texts")
struct PhaseTitleTests {
    @Test("titles count the phase from 1 and round the seconds left up", arguments: [
        (PhaseKind.run, 2, 8, 71.2 as Double?, nil as Double?, false, "Run 3 of 8 · 1:12 left"),
        (.walk, 0, 1, 0.01, nil, false, "Walk 1 of 1 · 0:01 left"),
        (.warmup, 0, 3, 3600, nil, true, "Warm-up 1 of 3 · 1:00:00 left · paused"),
        (.cooldown, 4, 5, nil, 349.6, false, "Cool-down 5 of 5 · 350 m left"),
        (.run, 1, 2, nil, nil, false, "Run 2 of 2"),
    ])
    func titles(kind: PhaseKind, index: Int, count: Int, seconds: Double?, metres: Double?, paused: Bool, expected: String) {
        #expect(PhaseTitle.title(kind: kind, index: index, count: count, remainingSeconds: seconds, remainingMetres: metres,
                                 paused: paused) == expected)
    }

    @Test("notifications show the phase as planned")
    func notifications() {
        #expect(PhaseTitle.notification(kind: .walk, index: 2, count: 8, plannedSeconds: 60, plannedMetres: nil) == "Walk · 1:00 · 3 of 8")
        #expect(PhaseTitle.notification(kind: .run, index: 0, count: 10, plannedSeconds: nil, plannedMetres: 400) == "Run · 400 m · 1 of 10")
        #expect(PhaseTitle.notification(kind: .run, index: 0, count: 2, plannedSeconds: nil, plannedMetres: 1500) == "Run · 1.5 km · 1 of 2")
    }
}

@Suite("HapticCuePlanner: what the runner feels")
struct HapticCuePlannerTests {
    private func snapshot(_ index: Int?, _ kind: PhaseKind?, _ remaining: Double?, paused: Bool = false, finished: Bool = false)
        -> HapticCuePlanner.Snapshot {
        .init(phaseIndex: index, phaseKind: kind, remainingSeconds: remaining, paused: paused, finished: finished)
    }

    @Test("a cue per phase start, one tick per last second (none twice, none paused), one at the end")
    func sequence() {
        var planner = HapticCuePlanner()
        var felt: [HapticCue] = []
        let feed: [HapticCuePlanner.Snapshot] = [
            snapshot(nil, nil, nil),
            snapshot(0, .warmup, 10), snapshot(0, .warmup, 9.5), snapshot(0, .warmup, 3.0), snapshot(0, .warmup, 2.7),
            snapshot(0, .warmup, 2.0, paused: true), snapshot(0, .warmup, 1.9), snapshot(0, .warmup, 0.5),
            snapshot(1, .run, 90), snapshot(1, .run, 89), snapshot(2, .walk, 60),
            snapshot(nil, nil, nil, finished: true), snapshot(nil, nil, nil, finished: true),
        ]
        for item in feed { felt += planner.handle(item) }
        #expect(felt == [.otherPhaseStarted, .countdownTick, .countdownTick, .countdownTick, .runStarted, .walkStarted, .workoutEnded])
    }
}
