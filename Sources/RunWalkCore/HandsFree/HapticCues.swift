/// What the runner should feel: a distinct feedback when a run or a walk (or another phase)
/// starts, at the end, and a tick for each of the last seconds of a phase.
public enum HapticCue: String, Sendable, Equatable, CaseIterable {
    case runStarted = "run_started"
    case walkStarted = "walk_started"
    case otherPhaseStarted = "phase_started"
    case countdownTick = "countdown_tick"
    case workoutEnded = "workout_ended"
}

/// Turns a stream of session snapshots into haptic cues: pure, fed by the adapter with each
/// status, so the same phase change or countdown second is never felt twice.
public struct HapticCuePlanner: Sendable, Equatable {
    /// One snapshot of the session as far as haptics care.
    public struct Snapshot: Sendable, Equatable {
        public var phaseIndex: Int?
        public var phaseKind: PhaseKind?
        public var remainingSeconds: Double?
        public var paused: Bool
        public var finished: Bool

        public init(phaseIndex: Int?, phaseKind: PhaseKind?, remainingSeconds: Double?, paused: Bool, finished: Bool) {
            self.phaseIndex = phaseIndex
            self.phaseKind = phaseKind
            self.remainingSeconds = remainingSeconds
            self.paused = paused
            self.finished = finished
        }
    }

    /// Seconds before a phase ends that tick (3, 2, 1).
    public var countdownSeconds: Int
    private var lastPhase: Int?
    private var lastTick: Int?
    private var ended = false

    public init(countdownSeconds: Int = 3) {
        self.countdownSeconds = countdownSeconds
    }

    /// The cues `snapshot` calls for, given every snapshot before it.
    public mutating func handle(_ snapshot: Snapshot) -> [HapticCue] {
        if ended { return [] }
        if snapshot.finished {
            ended = true
            return [.workoutEnded]
        }
        guard let index = snapshot.phaseIndex, let kind = snapshot.phaseKind else { return [] }
        var cues: [HapticCue] = []
        if index != lastPhase {
            lastPhase = index
            lastTick = nil
            switch kind {
            case .run: cues.append(.runStarted)
            case .walk: cues.append(.walkStarted)
            case .warmup, .cooldown: cues.append(.otherPhaseStarted)
            }
        }
        // A tick per whole second left (3, 2, 1), never while paused and never twice for one second.
        if !snapshot.paused, let remaining = snapshot.remainingSeconds, remaining > 0 {
            let second = Int(remaining.rounded(.up))
            if second <= countdownSeconds, second != lastTick {
                lastTick = second
                cues.append(.countdownTick)
            }
        }
        return cues
    }
}
