import FoundationEssentials
import RunWalkIO
import RunWalkRuntime

/// The session that answers on the user's control socket: what it runs and which program runs
/// it. One session runs at a time across the CLI and the app; a second start names this one.
public struct RunningSession: Sendable, Equatable {
    /// The workout as its front end was given it; nil when it did not answer in time.
    public var workout: String?
    /// The program (`runwalk`, `runwalk-app`) and its process, as the kernel tells.
    public var program: String?
    public var pid: Int32?
    /// The socket it answers on.
    public var socketPath: String

    /// "another session is running: 20m run in runwalk-app (pid 4242)".
    public var description: String {
        var text = "another session is running"
        if let workout { text += ": \(workout)" }
        if let program { text += " in \(program)" + (pid.map { " (pid \($0))" } ?? "") }
        return text
    }

    /// Asks the session on `path` what it runs.
    static func ask(path: String) -> RunningSession {
        let peer = ControlPeer.process(listeningOn: path)
        var workout: String?
        if case .ok(let status)? = try? ControlClient(path: path, timeoutSeconds: 2).send(.status) { workout = status?.workout }
        return RunningSession(workout: workout, program: peer?.program, pid: peer?.pid, socketPath: path)
    }
}

/// The session's control socket, claimed before it starts.
enum ControlClaim {
    /// Serves `control` on the user's socket; throws (naming the running session) when
    /// another session answers there; nil, said on `warn`, when the socket cannot be set up
    /// (the session runs without `runwalk control`).
    static func claim(control: SessionControl, program: String, environment: [String: String],
                      warn: (String) -> Void) throws(SessionFailure) -> ControlServer? {
        let path: String
        do { path = try ControlSocketPath.resolve(environment: environment, create: true, notice: warn) } catch {
            warn("\(program): control socket: \(error); this session runs without `runwalk control`")
            return nil
        }
        let server = ControlServer(control: control, path: path)
        do {
            switch try server.start() {
            case .listening: return server
            case .anotherSessionAnswers:
                let running = RunningSession.ask(path: path)
                throw SessionFailure(kind: .runtime, message: "\(running.description); one session runs at a time "
                                     + "(`runwalk control stop` ends it)", running: running)
            }
        } catch let error as ControlSocketError {
            warn("\(program): control socket: \(error); this session runs without `runwalk control`")
            return nil
        } catch let error as SessionFailure {
            throw error
        } catch {
            warn("\(program): control socket: \(error); this session runs without `runwalk control`")
            return nil
        }
    }
}
