import RunWalkCore
import RunWalkRuntime

/// What the live page shows, computed from one `SessionStatus` (the page only copies strings).
public struct LivePageModel: Equatable, Sendable {
    /// The phase in words ("Run"), or the stage before the first phase ("Waiting for GPS").
    public var title: String
    /// The CSS class tinting the page: `phase-run` etc., `phase-idle` before the start, `phase-done` after.
    public var tint: String
    /// "Phase 3 of 18", with "Paused" when paused.
    public var subtitle: String
    /// The time (or distance) left in the phase: the largest text on the page.
    public var remaining: String
    /// What `remaining` means, for screen readers ("time left in the phase").
    public var remainingCaption: String
    /// 0…1 of the phase done.
    public var phaseProgress: Double
    /// 0…1 of the workout done.
    public var workoutProgress: Double
    /// "Workout 12:30 of 40:00".
    public var workoutLine: String
    /// "Next: Walk 1:00", or "Last phase".
    public var next: String
    /// Distance so far.
    public var distance: String
    /// Current pace.
    public var pace: String
    /// Average pace.
    public var averagePace: String
    /// The GPS state as every front end words it: "GPS fix ±4 m, 9 sats", "GPS lost for 0:12",
    /// "No GPS fix yet", "GPS: gpsd has no receiver" (`GPSStateText`).
    public var gps: String
    /// "143 bpm · zone 2" from a heart-rate strap; nil without one (or while it is lost).
    public var heartRate: String?
    /// Whether the workout is paused (the pause button then reads "Resume").
    public var paused: Bool
    /// The pause button's label.
    public var pauseLabel: String
    /// Whether the session has ended (completed or stopped).
    public var finished: Bool
    /// Whether Pause and Skip do anything now (a phase runs or is paused).
    public var controlsActive: Bool
    /// "Target 6:00-6:30/km · in" while a phase with a band runs (nil otherwise).
    public var target: String?
    /// The gauge under it, 0…1: the band is the middle third; below it (slower, lower heart rate)
    /// to the left, above it to the right. Nil without a band or a value to place.
    public var targetGauge: Double?
    /// Why the workout has not begun, while it waits for a GPS fix (the source's own reason
    /// when it gives one, "gpsd has no receiver"); nil otherwise.
    public var waitingReason: String?
    /// Whether "Start now" is offered: waiting for a fix, the runner may start without one.
    public var canStartNow: Bool

    /// The page for `status`.
    public init(_ status: SessionStatus) {
        let units = status.units
        paused = status.paused
        pauseLabel = status.paused ? "Resume" : "Pause"
        finished = status.isFinished
        controlsActive = status.phase != nil && !status.isFinished
        distance = Format.distance(status.distanceMetres, units)
        pace = Format.pace(status.currentPaceSecondsPerKm, units)
        averagePace = Format.pace(status.averagePaceSecondsPerKm, units)
        gps = status.gps.text
        heartRate = status.heartRateBPM.map { "\($0) bpm" + (status.heartRateZone.map { " · zone \($0)" } ?? "") }
        phaseProgress = status.phaseProgress
        workoutProgress = status.workoutProgress
        let total = status.workoutRemainingSeconds.map { status.workoutElapsedSeconds + $0 }
        workoutLine = "Workout " + TimeText.clock(status.workoutElapsedSeconds) + (total.map { " of " + TimeText.clock($0) } ?? "")
        next = status.next.map { "Next: " + PhaseLook.word($0.kind) + " " + Self.planned($0) } ?? "Last phase"
        remainingCaption = "time left in the phase"
        (target, targetGauge) = Self.targetLook(status)
        waitingReason = nil
        canStartNow = status.stage == .waitingForFix
        switch status.stage {
        case .waitingForFix:
            waitingReason = status.gps.problem.map { "No position: \($0)" }
                ?? "No position from the GPS yet: outdoors, with open sky, a first fix takes up to a minute"
            title = "Waiting for GPS"
            tint = "phase-idle"
            subtitle = "The workout starts at the first fix"
            remaining = "--:--"
            remainingCaption = "waiting for a GPS fix"
        case .startCountdown:
            title = "Get ready"
            tint = "phase-idle"
            subtitle = "Starting"
            remaining = "\(status.startCountdownSeconds ?? 0)"
            remainingCaption = "seconds to the start"
        case .completed, .stopped:
            title = status.stage == .completed ? "Workout complete" : "Workout stopped"
            tint = "phase-done"
            subtitle = "\(status.phaseCount) phases"
            remaining = TimeText.clock(status.workoutElapsedSeconds)
            remainingCaption = "workout time"
        case .running, .paused:
            if let phase = status.phase {
                title = PhaseLook.word(phase.kind)
                tint = PhaseLook.cssClass(phase.kind)
                subtitle = "Phase \(phase.index + 1) of \(status.phaseCount)" + (status.paused ? (status.autoPaused ? " · Auto-paused" : " · Paused") : "")
            } else {
                title = "Running"
                tint = "phase-idle"
                subtitle = ""
            }
            if let seconds = status.phaseRemainingSeconds {
                remaining = TimeText.clock(seconds, rounding: .up)
            } else if let metres = status.phaseRemainingMetres {
                remaining = Format.metres(metres)
                remainingCaption = "distance left in the phase"
            } else {
                remaining = "--:--"
            }
        }
    }

    /// The band in words and the gauge's position (issue 33).
    static func targetLook(_ status: SessionStatus) -> (String?, Double?) {
        guard let band = status.target, status.stage == .running || status.stage == .paused else { return (nil, nil) }
        // As the terminal says it: for a pace band, which way "below" and "above" are.
        let isHeartRate = band.heartRateMin != nil
        let word = switch status.targetState {
        case .in?: "in"
        case .below?: isHeartRate ? "below" : "below (slower)"
        case .above?: isHeartRate ? "above" : "above (faster)"
        case nil: "–"
        }
        let text = "Target \(band.text) · \(word)"
        if let fast = band.paceMinSecondsPerKm, let slow = band.paceMaxSecondsPerKm, let pace = status.currentPaceSecondsPerKm {
            let width = max(10, slow - fast)
            return (text, min(1, max(0, (slow + width - pace) / (3 * width))))
        }
        if let low = band.heartRateMin, let high = band.heartRateMax, let bpm = status.heartRateBPM {
            let width = max(5, Double(high - low))
            return (text, min(1, max(0, (Double(bpm) - Double(low) + width) / (3 * width))))
        }
        switch status.targetState {
        case .below?: return (text, 1.0 / 6)
        case .in?: return (text, 0.5)
        case .above?: return (text, 5.0 / 6)
        case nil: return (text, nil)
        }
    }

    private static func planned(_ phase: SessionStatus.Phase) -> String {
        if let seconds = phase.plannedSeconds { return TimeText.clock(seconds) }
        if let metres = phase.plannedMetres { return Format.metres(metres) }
        return ""
    }
}
