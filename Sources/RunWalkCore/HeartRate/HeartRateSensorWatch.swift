/// Decides when a live heart-rate strap is to be *said* lost and back ("Heart rate lost." /
/// "Heart rate back."), once each, without nagging.
///
/// The strap is lost when its adapter says it is gone (out of range, flat battery), when it
/// reports no skin contact for `contactGraceSeconds`, or when no heart rate has come for
/// `silenceSeconds` (notifications stopped with the link up, or only 0/255 values). It is back
/// once heart rates have come steadily for `steadySeconds`, so one stray value in a loss is not
/// a return. A loss that begins within `quietSeconds` of the last thing said is said only if it
/// still lasts when that quiet time is over, and its return only if the loss was said: a strap
/// that flickers is heard at most once a minute. Pure: every input carries its clock seconds.
///
/// ```swift
/// var watch = HeartRateSensorWatch()
/// watch.heartRate(at: 0)              // []
/// watch.tick(at: 11)                  // [.lost] (no heart rate for 10 s)
/// for t in 12...14 { watch.heartRate(at: Double(t)) }  // [] each
/// watch.heartRate(at: 15)             // [.back] (3 s of heart rates, a second apart)
/// ```
public struct HeartRateSensorWatch: Sendable, Equatable {
    /// What is to be said.
    public enum Announcement: Sendable, Equatable {
        case lost, back
    }

    /// No heart rate for this long (after the first) is a loss, seconds.
    public var silenceSeconds = 10.0
    /// No skin contact for this long is a loss, seconds (a shirt lifting for a moment is not).
    public var contactGraceSeconds = 5.0
    /// Heart rates for this long after a loss are a return, seconds…
    public var steadySeconds = 3.0
    /// …one after another: two further apart than this start the return afresh, seconds.
    public var steadyGapSeconds = 2.5
    /// No new loss is said within this long of the last announcement, seconds.
    public var quietSeconds = 60.0

    /// Whether the strap counts as lost now (said or not).
    public private(set) var isLost = false
    /// Whether the runner was told it is lost (and not yet that it is back).
    public private(set) var saidLost = false
    private var lastHeartRateSeconds: Double?
    private var noContactSinceSeconds: Double?
    private var steadySinceSeconds: Double?
    private var lastAnnouncementSeconds: Double?

    public init() {}

    /// The strap's input at `seconds`: a measurement (with or without a heart rate), a loss the
    /// adapter reports, or a (re)connection, which by itself is no return.
    public mutating func handle(_ input: HeartRateInput, at seconds: Double) -> [Announcement] {
        switch input {
        case .measurement(let measurement):
            if measurement.bpm != nil { return heartRate(at: seconds) }
            return noHeartRate(at: seconds, contactLost: measurement.contact == .notDetected)
        case .lost:
            return lose(at: seconds)
        case .connected:
            return tick(at: seconds)
        }
    }

    /// A measurement with a heart rate at `seconds`.
    public mutating func heartRate(at seconds: Double) -> [Announcement] {
        let previous = lastHeartRateSeconds
        lastHeartRateSeconds = seconds
        noContactSinceSeconds = nil
        guard isLost else { return [] }
        if steadySinceSeconds == nil || previous.map({ seconds - $0 > steadyGapSeconds }) ?? true {
            steadySinceSeconds = seconds
        }
        guard let since = steadySinceSeconds, seconds - since >= steadySeconds else { return [] }
        isLost = false
        steadySinceSeconds = nil
        guard saidLost else { return [] }
        saidLost = false
        lastAnnouncementSeconds = seconds
        return [.back]
    }

    /// A measurement without a heart rate at `seconds` (0 or 255 bpm, or no skin contact).
    public mutating func noHeartRate(at seconds: Double, contactLost: Bool) -> [Announcement] {
        steadySinceSeconds = nil
        if contactLost {
            let since = noContactSinceSeconds ?? seconds
            noContactSinceSeconds = since
            if seconds - since >= contactGraceSeconds { return lose(at: seconds) }
        }
        return tick(at: seconds)
    }

    /// Time moves on to `seconds` with nothing from the strap: a silence may become a loss, and
    /// a loss not yet said (within the quiet time) may now be said.
    public mutating func tick(at seconds: Double) -> [Announcement] {
        if !isLost, let last = lastHeartRateSeconds, seconds - last >= silenceSeconds { return lose(at: seconds) }
        if let since = noContactSinceSeconds, !isLost, seconds - since >= contactGraceSeconds { return lose(at: seconds) }
        return sayLossIfDue(at: seconds)
    }

    private mutating func lose(at seconds: Double) -> [Announcement] {
        steadySinceSeconds = nil
        isLost = true
        return sayLossIfDue(at: seconds)
    }

    private mutating func sayLossIfDue(at seconds: Double) -> [Announcement] {
        guard isLost, !saidLost else { return [] }
        if let last = lastAnnouncementSeconds, seconds - last < quietSeconds { return [] }
        saidLost = true
        lastAnnouncementSeconds = seconds
        return [.lost]
    }
}
