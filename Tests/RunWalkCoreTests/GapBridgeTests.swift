import Testing
@testable import RunWalkCore

@Suite("GapBridge")
struct GapBridgeTests {
    @Test("moving on both sides: the mean speed over the gap, bounded by the chord and a half circle",
          arguments: [
              // (before m/s, after m/s, chord m, expected m): 20 s gap, slack 1 m
              (1.5, 1.3, 27.0, 28.0),   // 20 × 1.4
              (1.5, 1.3, 10.0, 16.71),  // capped at 10 × π/2 + 1
              (1.5, 1.3, 40.0, 39.0),   // raised to 40 − 1
          ])
    func moving(before: Double, after: Double, chord: Double, expected: Double) {
        let gap = GapBridge(durationSeconds: 20, speedBefore: before, speedAfter: after, chordMetres: chord, slackMetres: 1)
        #expect(abs(gap.estimateMetres - expected) < 0.01, "\(gap.estimateMetres) m")
    }

    @Test("a stop on one side: live, the moving side's speed; offline, the chord when it is shorter",
          arguments: [
              // (stopTakesChord, chord m, expected m): 20 s gap at 1.5 m/s before, stop after, slack 1 m
              (false, 26.0, 30.0),      // 20 × 1.5, inside [25, 26 × π/2 + 1]
              (true, 26.0, 26.0),       // the straight line to where the runner stood
              (true, 35.0, 34.0),       // the speed bound 30 m, but never below chord − slack
          ])
    func stop(stopTakesChord: Bool, chord: Double, expected: Double) {
        let gap = GapBridge(durationSeconds: 20, speedBefore: 1.5, speedAfter: 0, chordMetres: chord, slackMetres: 1,
                            stopTakesChord: stopTakesChord)
        #expect(abs(gap.estimateMetres - expected) < 0.01, "\(gap.estimateMetres) m")
    }
}
