import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunWalkHost
import RunWalkIO
import RunWalkRuntime

/// `runwalk control ACTION [--json]`: commands and status for the running session, through
/// its control socket (`$XDG_RUNTIME_DIR/runwalk/control.sock`).
struct ControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "control",
        abstract: "Pause, resume, skip … the running session, or print its status.",
        discussion: """
            Reaches the session `runwalk run` started, through the socket \
            $XDG_RUNTIME_DIR/runwalk/control.sock (/tmp/runwalk-UID/control.sock without \
            XDG_RUNTIME_DIR; RUNWALK_CONTROL_SOCKET names another). With no session running it \
            says so and exits 1. Signals do the same: SIGUSR1 toggles pause, SIGUSR2 skips.
            """
    )

    /// What to ask of the session.
    enum Action: String, CaseIterable, ExpressibleByArgument {
        case pause, resume, toggle, skip, restart, stop, start, status
    }

    @Argument(help: "What to do: restart starts the current phase again; start starts now, without waiting for a GPS fix.")
    var action: Action

    @Flag(help: "Print the session's status JSON alone on standard output.")
    var json = false

    func run() throws {
        let request: ControlRequest
        if let command = SessionCommand(rawValue: action.rawValue) {
            request = .command(command)
        } else {
            request = .status
        }
        let response: ControlResponse
        do {
            response = try ControlClient.forSession().send(request)
        } catch let error as ControlClientError {
            if case .noSession = error {
                // The documented wording, not an "error:" line: no session is a state, not a fault.
                // Exit here: main's handler would add its "runwalk: error:" prefix to any error thrown.
                StandardStreams.error("runwalk: no session is running")
                Glibc.exit(1)
            }
            throw UserFacingError.runtime("control: \(error)")
        } catch {
            throw UserFacingError.runtime("control socket: \(error)")
        }
        switch response {
        case .failure(let message):
            throw UserFacingError.runtime("control: the session answered: \(message)")
        case .ok(nil):
            if request == .status { throw UserFacingError.runtime("control: the session has not published a status yet") }
            StandardStreams.out(json ? "null" : "\(action.rawValue) sent; the session has no status yet")
        case .ok(let status?):
            if json {
                StandardStreams.out(try Self.json(status))
            } else if request == .status {
                StandardStreams.out(SessionStatusLine.render(status))
            } else {
                StandardStreams.out("\(confirmation(status)): \(SessionStatusLine.render(status))")
            }
        }
    }

    /// `paused`, `skipped` … (a toggle says which way it went).
    func confirmation(_ status: SessionStatus) -> String {
        switch action {
        case .pause: "paused"
        case .resume: "resumed"
        case .toggle: status.paused ? "paused" : "resumed"
        case .skip: "skipped"
        case .restart: "restarted the phase"
        case .stop: "stopped"
        case .start: "started"
        case .status: "status"
        }
    }

    static func json(_ status: SessionStatus) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(status), as: UTF8.self)
    }
}

/// Lines to the standard streams through write(2): a closed pipe or a full disk is a failed
/// write here, not a trap (as FileHandle.write(Data) would be).
enum StandardStreams {
    /// A line of the command's output: through `Terminal`, which reports a failed write once
    /// and makes the command exit 1.
    static func out(_ line: String) { Terminal.out(line) }
    static func error(_ line: String) { write(line + "\n", to: STDERR_FILENO) }

    private static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
