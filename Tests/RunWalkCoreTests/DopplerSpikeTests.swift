import Testing
@testable import RunWalkCore

/// One-fix Doppler spikes (a reflected carrier between tall buildings) are not integrated into
/// the distance, while true changes of pace, however abrupt, still are (`DopplerSpikeGuard`).
@Suite("Telemetry: Doppler spikes in an urban canyon")
struct DopplerSpikeTests {
    /// An urban-canyon receiver on a nearly straight street at 3 m/s: 8 m of correlated position
    /// error, HDOP 2.5, Doppler noise 0.25 m/s.
    static func canyon(seed: UInt64) -> TestTrack {
        var track = TestTrack()
        track.seconds = 900
        track.radiusMetres = 5000
        track.correlatedSigmaMetres = 8
        track.correlationSeconds = 45
        track.jitterMetres = 1.5
        track.hdop = 2.5
        track.dopplerSigma = 0.25
        track.seed = seed
        return track
    }

    /// The same fixes with a Doppler speed `spikeMetresPerSecond` too high every 45 s, for one fix.
    static func spiked(_ fixes: [Fix], spikeMetresPerSecond: Double) -> [Fix] {
        fixes.enumerated().map { j, fix in
            var fix = fix
            if j > 0, j % 45 == 0, let speed = fix.speedMetresPerSecond { fix.speedMetresPerSecond = speed + spikeMetresPerSecond }
            return fix
        }
    }

    static var withoutGuard: TelemetrySettings {
        var settings = TelemetrySettings()
        settings.dopplerLeapMetresPerSecond = .infinity
        return settings
    }

    @Test("twenty one-fix spikes of 2–3 m/s add under 3 m (they added 39–58 m)",
          arguments: [(UInt64(1), 2.0), (2, 2.0), (3, 3.0), (4, 2.5)])
    func spikesAddNothing(seed: UInt64, spike: Double) {
        let clean = Self.canyon(seed: seed).fixes()
        let spiked = Self.spiked(clean, spikeMetresPerSecond: spike)
        let reference = TestTrack.distance(of: clean)
        let ours = TestTrack.distance(of: spiked)
        let before = TestTrack.distance(of: spiked, settings: Self.withoutGuard)
        #expect(abs(ours - reference) < 3, "seed \(seed): \(ours) m with spikes against \(reference) m without")
        #expect(before - reference > 10, "seed \(seed): without the guard the spikes added \(before - reference) m")
    }

    /// Abrupt changes of pace: walk 1.4 → run 3.2 → stand → run, each within one fix.
    static func steps(_ t: Double) -> Double {
        switch t.truncatingRemainder(dividingBy: 200) {
        case ..<60: 1.4
        case ..<130: 3.2
        case ..<150: 0
        default: 3.0
        }
    }

    @Test("abrupt true changes of pace keep their distance (within 1 m of applying every reading at once)",
          arguments: [UInt64(1), 2, 3])
    func trueStepsKeepTheirDistance(seed: UInt64) {
        var track = Self.canyon(seed: seed)
        track.speed = Self.steps
        track.dopplerSigma = 0.1
        let fixes = track.fixes()
        let truth = track.trueDistance(to: track.seconds)
        let ours = TestTrack.distance(of: fixes)
        let before = TestTrack.distance(of: fixes, settings: Self.withoutGuard)
        #expect(abs(ours - before) < 1, "seed \(seed): \(ours) m against \(before) m without the guard")
        #expect(abs(ours - truth) / truth < 0.005, "seed \(seed): \(ours) m against \(truth) m true")
    }

    @Test("an upward leap from a walk or faster is held; owed back when the next reading confirms it, dropped when it comes back")
    func guardDecides() {
        var guarding = DopplerSpikeGuard(leapMetresPerSecond: 1.2, maximumIntervalSeconds: 2.5)
        var owed = 0.0
        func screen(_ speed: Double, _ reference: Double, moving: Bool = true, seconds: Double = 1) -> Bool {
            #expect(guarding.screen(speed, reference: reference, moving: moving, intervalSeconds: seconds, owed: &owed) == speed)
            return guarding.holding
        }
        #expect(!screen(3.0, 3.0))
        #expect(screen(5.0, 3.0))
        #expect(!screen(3.1, 3.0))
        #expect(owed == 0)
        #expect(screen(3.0, 1.4))
        #expect(!screen(3.1, 1.5))
        #expect(abs(owed - 1.6) < 1e-9)
        // A steep fall (a stop at a light), a start from under a walk, standing, or a gap: applied at once.
        #expect(!screen(0.8, 3.0))
        #expect(!screen(2.2, 0.8))
        #expect(!screen(2.0, 0, moving: false))
        #expect(!screen(6.0, 3.0, seconds: 5))
        #expect(abs(owed - 1.6) < 1e-9)
    }
}
