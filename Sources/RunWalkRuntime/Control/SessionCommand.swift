/// What a runner (or a script, a lock screen, a headset) asks of a running session.
///
/// The same commands reach the session from every front end: the terminal's keys, the app's
/// buttons, `runwalk control`, signals, MPRIS.
public enum SessionCommand: String, Sendable, Equatable, CaseIterable, Codable {
    /// Stops the workout clock; what is moved while paused is recorded but not counted.
    case pause
    /// Starts the workout clock again.
    case resume
    /// Pause when running, resume when paused.
    case toggle
    /// Ends the current phase now and starts the next.
    case skip
    /// Starts the current phase again from its beginning.
    case restart
    /// Ends the workout; the session is finalised with what was done.
    case stop
    /// Starts the workout now while it is waiting for a GPS fix (or cuts the start countdown short).
    case start
}
