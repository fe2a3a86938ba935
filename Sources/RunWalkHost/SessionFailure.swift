/// Why the session service could not start or finish a session: one line for the user, and
/// whose fault it is (the input's: the CLI exits 2; the system's: 1).
public struct SessionFailure: Error, Equatable, CustomStringConvertible {
    /// Whose fault it is.
    public enum Kind: Sendable, Equatable {
        /// The runner's input (a workout, a file, a setting): exit 2.
        case input
        /// The system (the store, the audio server, another session): exit 1.
        case runtime
    }

    public var kind: Kind
    public var message: String
    /// Set when another session holds the control socket: what it runs and who runs it.
    public var running: RunningSession?

    public var description: String { message }

    public static func input(_ message: String) -> SessionFailure { SessionFailure(kind: .input, message: message) }
    public static func runtime(_ message: String) -> SessionFailure { SessionFailure(kind: .runtime, message: message) }

    public init(kind: Kind, message: String, running: RunningSession? = nil) {
        self.kind = kind
        self.message = message
        self.running = running
    }
}
