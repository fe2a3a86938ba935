import RunWalkAppModel
import RunWalkCore
import RunWalkRuntime
import Testing

@Suite struct LivePageModelTests {
    /// A run phase, 3rd of 18, 72.4 s left, with a GPS fix.
    static func running() -> SessionStatus {
        var status = SessionStatus(workout: "w", stage: .running, phaseCount: 18)
        status.phase = .init(index: 2, kind: .run, plannedSeconds: 90, plannedMetres: nil)
        status.next = .init(index: 3, kind: .walk, plannedSeconds: 60, plannedMetres: nil)
        status.phaseRemainingSeconds = 72.4
        status.phaseProgress = 0.2
        status.workoutElapsedSeconds = 400
        status.workoutRemainingSeconds = 1400
        status.workoutProgress = 0.22
        status.distanceMetres = 1234
        status.currentPaceSecondsPerKm = 340
        status.averagePaceSecondsPerKm = 390
        status.gps = .init(state: .fix, accuracyMetres: 3.6, satellites: 9)
        return status
    }

    @Test func aRunningPhaseReadsAsWordsTintAndFigures() {
        let model = LivePageModel(Self.running())
        #expect(model.title == "Run")
        #expect(model.tint == "phase-run")
        #expect(model.subtitle == "Phase 3 of 18")
        // Rounded up: "1:13" until the 72nd second has passed, as a countdown should.
        #expect(model.remaining == "1:13")
        #expect(model.next == "Next: Walk 1:00")
        #expect(model.distance == "1.23 km")
        #expect(model.pace == "5:40 /km")
        #expect(model.averagePace == "6:30 /km")
        #expect(model.gps == "GPS fix ±4 m, 9 sats")
        #expect(model.workoutLine == "Workout 6:40 of 30:00")
        #expect(model.pauseLabel == "Pause")
        #expect(model.controlsActive)
        #expect(!model.finished)
    }

    @Test func pausedSaysSoAndOffersResume() {
        var status = Self.running()
        status.stage = .paused
        status.paused = true
        let model = LivePageModel(status)
        #expect(model.subtitle == "Phase 3 of 18 · Paused")
        #expect(model.pauseLabel == "Resume")
        status.autoPaused = true
        #expect(LivePageModel(status).subtitle == "Phase 3 of 18 · Auto-paused")
    }

    @Test(arguments: [(PhaseKind.warmup, "Warm-up", "phase-warmup"), (.run, "Run", "phase-run"),
                      (.walk, "Walk", "phase-walk"), (.cooldown, "Cool-down", "phase-cooldown")])
    func everyPhaseHasItsWordAndTint(kind: PhaseKind, word: String, tint: String) {
        var status = Self.running()
        status.phase?.kind = kind
        let model = LivePageModel(status)
        #expect(model.title == word)
        #expect(model.tint == tint)
        #expect(PhaseLook.allCSSClasses.contains(tint))
    }

    @Test func aDistancePhaseCountsMetres() {
        var status = Self.running()
        status.phaseRemainingSeconds = nil
        status.phaseRemainingMetres = 212.6
        let model = LivePageModel(status)
        #expect(model.remaining == "213 m")
        #expect(model.remainingCaption == "distance left in the phase")
    }

    @Test func beforeTheStartAndAfterTheEnd() {
        let waiting = LivePageModel(SessionStatus(workout: "w", stage: .waitingForFix, phaseCount: 3))
        #expect(waiting.title == "Waiting for GPS")
        #expect(waiting.tint == "phase-idle")
        #expect(!waiting.controlsActive)
        #expect(waiting.gps == "No GPS fix yet")
        // Waiting says why, and offers to start without a fix (issue 31).
        #expect(waiting.canStartNow)
        #expect(waiting.waitingReason?.hasPrefix("No position from the GPS yet") == true)
        var noReceiver = SessionStatus(workout: "w", stage: .waitingForFix, phaseCount: 3)
        noReceiver.gps = .init(state: .noFix, problem: "gpsd has no receiver")
        #expect(LivePageModel(noReceiver).waitingReason == "No position: gpsd has no receiver")
        // The source's reason reaches the GPS line too, worded as every front end words it.
        #expect(LivePageModel(noReceiver).gps == "GPS: gpsd has no receiver")
        #expect(LivePageModel(noReceiver).gps == noReceiver.gps.text)
        #expect(!LivePageModel(Self.running()).canStartNow)
        #expect(LivePageModel(Self.running()).waitingReason == nil)
        var countdown = SessionStatus(workout: "w", stage: .startCountdown, phaseCount: 3)
        countdown.startCountdownSeconds = 2
        #expect(LivePageModel(countdown).remaining == "2")
        var done = Self.running()
        done.stage = .stopped
        done.phase = nil
        let finished = LivePageModel(done)
        #expect(finished.finished)
        #expect(finished.title == "Workout stopped")
        #expect(!finished.controlsActive)
    }

    @Test func noPaceWhileStandingAndALostGPSSaysHowLong() {
        var status = Self.running()
        status.currentPaceSecondsPerKm = nil
        status.gps = .init(state: .lost, lostForSeconds: 12)
        let model = LivePageModel(status)
        #expect(model.pace == "–")
        #expect(model.gps == "GPS lost for 0:12")
    }
}
