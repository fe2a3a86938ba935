import RunWalkCore
import RunWalkStore

/// The session store where every front end records (`RUNWALK_DATA_DIR`, else the XDG data folder).
public enum LiveRecording {
    /// A recorder for a session in the user's store, telling store trouble to `warn`.
    public static func recorder(workout: Workout, options: SessionOptions, source: String,
                                warn: @escaping @Sendable (String) -> Void) -> SessionRecorder {
        SessionRecorder(location: .fromEnvironment(), storeOptions: .fromEnvironment(),
                        session: .init(workout: workout, options: options, source: source), warn: warn)
    }
}
