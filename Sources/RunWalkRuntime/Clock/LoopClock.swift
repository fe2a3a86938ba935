/// A clock the session loop runs on: what its timer thread needs to wait for a deadline.
///
/// The live clock and the tests' `ManualClock` go through the same timer (`ThreadTimer`); they
/// differ only in how a waiting thread learns that the deadline has come: real time passes by
/// itself (the thread sleeps in `poll(2)` until then), a manual clock's time moves when a test
/// advances it (the clock rings the thread's alarm).
public protocol LoopClock: Clock, Sendable where Duration == Swift.Duration {
    /// How long, in real time, a thread waiting for `deadline` sleeps before it looks at the
    /// clock again; nil: until its alarm rings.
    func realTimeUntil(_ deadline: Instant) -> Swift.Duration?

    /// Calls `ring` (once, on the thread that moves the clock) when the clock is moved to or past
    /// `deadline` other than by real time passing, at once when it is there already; replaces
    /// the alarm `owner` set before; a nil deadline clears it.
    func setAlarm(_ deadline: Instant?, owner: ObjectIdentifier, ring: @escaping @Sendable () -> Void)
}

extension ContinuousClock: LoopClock {
    public func realTimeUntil(_ deadline: Instant) -> Swift.Duration? { now.duration(to: deadline) }

    /// Nothing to ring: real time reaches the deadline, and the waiting thread's `poll(2)` times out.
    public func setAlarm(_ deadline: Instant?, owner: ObjectIdentifier, ring: @escaping @Sendable () -> Void) {}
}
