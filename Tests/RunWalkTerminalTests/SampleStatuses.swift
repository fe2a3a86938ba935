import RunWalkCore
import RunWalkRuntime

/// Statuses a runner meets, for the renderer and front-end tests.
enum SampleStatuses {
    static let workout = "5m warmup, 8x(90s run, 60s walk), 5m cooldown"

    /// Run 3 of 18, 0:47 left of 1:30, fix ±4 m with 9 satellites.
    static func running(units: Units = .metric) -> SessionStatus {
        SessionStatus(workout: workout, stage: .running,
                      phase: .init(index: 2, kind: .run, plannedSeconds: 90, plannedMetres: nil), phaseCount: 18,
                      next: .init(index: 3, kind: .walk, plannedSeconds: 60, plannedMetres: nil),
                      phaseElapsedSeconds: 43.2, phaseRemainingSeconds: 46.8, phaseProgress: 0.48,
                      workoutElapsedSeconds: 433.2, workoutRemainingSeconds: 1566.8, workoutProgress: 0.2166,
                      elapsedSeconds: 433.2, distanceMetres: 1234.5, currentPaceSecondsPerKm: 365,
                      averagePaceSecondsPerKm: 380.4, gps: .init(state: .fix, accuracyMetres: 4.2, satellites: 9),
                      units: units)
    }

    static func paused(auto: Bool = false) -> SessionStatus {
        var status = running()
        status.stage = .paused
        status.paused = true
        status.autoPaused = auto
        return status
    }

    static func lost() -> SessionStatus {
        var status = running()
        status.gps = .init(state: .lost, lostForSeconds: 12.4)
        status.currentPaceSecondsPerKm = nil
        return status
    }

    /// A 400 m run with 312 m left.
    static func distancePhase() -> SessionStatus {
        var status = running()
        status.phase = .init(index: 1, kind: .run, plannedSeconds: nil, plannedMetres: 400)
        status.next = .init(index: 2, kind: .walk, plannedSeconds: nil, plannedMetres: 200)
        status.phaseRemainingSeconds = nil
        status.phaseRemainingMetres = 311.6
        status.phaseProgress = 0.221
        status.workoutRemainingSeconds = nil
        return status
    }

    static func waiting() -> SessionStatus {
        SessionStatus(workout: workout, stage: .waitingForFix, phaseCount: 18,
                      next: .init(index: 0, kind: .warmup, plannedSeconds: 300, plannedMetres: nil),
                      gps: .init(state: .noFix, lostForSeconds: 23))
    }

    static func countdown(_ seconds: Int) -> SessionStatus {
        SessionStatus(workout: workout, stage: .startCountdown, phaseCount: 18,
                      next: .init(index: 0, kind: .warmup, plannedSeconds: 300, plannedMetres: nil),
                      gps: .init(state: .fix, accuracyMetres: 3, satellites: 10), startCountdownSeconds: seconds)
    }

    static func finished(completed: Bool = true) -> SessionStatus {
        SessionStatus(workout: workout, stage: completed ? .completed : .stopped, phaseCount: 18,
                      workoutElapsedSeconds: 2000, workoutProgress: 1, elapsedSeconds: 2075, distanceMetres: 5210,
                      averagePaceSecondsPerKm: 383.9, gps: .init(state: .fix, accuracyMetres: 3, satellites: 10))
    }

    /// A phase over an hour long, for the widest clock.
    static func longPhase() -> SessionStatus {
        var status = running()
        status.phase = .init(index: 0, kind: .warmup, plannedSeconds: 7200, plannedMetres: nil)
        status.phaseRemainingSeconds = 4000
        return status
    }

    /// Every sample, named for test output.
    static let all: [(name: String, status: SessionStatus)] = [
        ("running", running()), ("running-imperial", running(units: .imperial)), ("paused", paused()),
        ("auto-paused", paused(auto: true)), ("gps-lost", lost()), ("distance", distancePhase()), ("waiting", waiting()),
        ("countdown", countdown(3)), ("completed", finished()), ("stopped", finished(completed: false)), ("long", longPhase()),
    ]
}
