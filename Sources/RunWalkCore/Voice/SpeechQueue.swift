/// One voice, one utterance at a time: places cues on the timeline so none overlaps another.
///
/// Cues on the beat (countdown numbers, transitions) keep their time; a countdown number
/// that cannot start on its second is dropped, a transition that finds the voice busy
/// waits (it is never cut, and neither is what it waits for). Other cues start when the
/// voice is free; one that would run into the window reserved for the next boundary's
/// countdown and transition waits until that transition has been placed (one such cue
/// waits at a time, the newest), and any of them is dropped once stale.
public struct SpeechQueue: Sendable, Equatable {
    /// Silence kept between two utterances, seconds.
    public var gapSeconds: Double
    /// When the last placed utterance ends.
    public private(set) var busyUntilSeconds = -Double.infinity
    /// The span kept free for the next boundary's countdown and transition.
    public private(set) var reserved: ClosedRange<Double>?
    /// A cue waiting for the reserved window to pass, and how stale it may become.
    public private(set) var waiting: (cue: Cue, staleAfterSeconds: Double)?

    public init(gapSeconds: Double = 0.1) {
        self.gapSeconds = gapSeconds
    }

    public static func == (a: SpeechQueue, b: SpeechQueue) -> Bool {
        a.gapSeconds == b.gapSeconds && a.busyUntilSeconds == b.busyUntilSeconds && a.reserved == b.reserved
            && a.waiting?.cue == b.waiting?.cue && a.waiting?.staleAfterSeconds == b.waiting?.staleAfterSeconds
    }

    /// Sets the window to keep free; a cue waiting for an earlier window is placed now.
    public mutating func reserve(_ window: ClosedRange<Double>?) -> [Cue] {
        let passed = reserved.map { old in window.map { $0.lowerBound > old.upperBound } ?? true } ?? false
        reserved = window
        return passed ? releaseWaiting() : []
    }

    /// Places `cue` (its `atSeconds` is the wished start); returns what was placed — nothing
    /// when it was dropped or waits, and a waiting cue after a transition.
    public mutating func place(_ cue: Cue, staleAfterSeconds: Double) -> [Cue] {
        var placed = cue
        let free = busyUntilSeconds + gapSeconds
        switch cue.kind.priority {
        case .onTheBeat:
            // A few milliseconds of trailing silence may touch; sound never does.
            if cue.atSeconds < busyUntilSeconds {
                guard cue.kind == .transition else { return [] }
                placed.atSeconds = free
            }
            busyUntilSeconds = max(busyUntilSeconds, placed.endSeconds)
            return cue.kind == .transition ? [placed] + releaseWaiting() : [placed]
        case .prompt, .background:
            placed.atSeconds = max(cue.atSeconds, free)
            // The runner's own pause and resume are answered at once; the closing cue has no boundary after it.
            let keepsClear = cue.kind != .pauseResume && cue.kind != .complete
            if keepsClear, let window = reserved,
               placed.atSeconds < window.upperBound, placed.endSeconds + gapSeconds > window.lowerBound {
                waiting = (cue, staleAfterSeconds)
                return []
            }
            guard placed.atSeconds - cue.atSeconds <= staleAfterSeconds else { return [] }
            busyUntilSeconds = max(busyUntilSeconds, placed.endSeconds)
            return [placed]
        }
    }

    /// Forgets the cue waiting for the reserved window (nothing more is to be said).
    public mutating func discardWaiting() {
        waiting = nil
    }

    /// Places the waiting cue after what is already placed, unless it has gone stale.
    private mutating func releaseWaiting() -> [Cue] {
        guard let (cue, staleAfter) = waiting else { return [] }
        waiting = nil
        var placed = cue
        placed.atSeconds = max(cue.atSeconds, busyUntilSeconds + gapSeconds)
        guard placed.atSeconds - cue.atSeconds <= staleAfter else { return [] }
        busyUntilSeconds = placed.endSeconds
        return [placed]
    }
}
