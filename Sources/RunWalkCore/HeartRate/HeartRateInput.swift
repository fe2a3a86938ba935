/// What a live heart-rate strap tells the session (its adapter turns BlueZ's signals into these).
public enum HeartRateInput: Sendable, Equatable {
    /// One notification, taken at the loop's clock when it arrives.
    case measurement(HeartRateMeasurement)
    /// The strap is gone (said once per loss by the adapter); `reason` is for the runner.
    case lost(reason: String)
    /// Subscribed to the strap again (or for the first time).
    case connected
}
