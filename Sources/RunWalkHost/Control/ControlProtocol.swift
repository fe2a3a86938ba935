import FoundationEssentials
import RunWalkIO
import RunWalkRuntime

/// One request of the control protocol: the client sends it as one line (`pause\n`).
public enum ControlRequest: Equatable, Sendable {
    /// Only read the status.
    case status
    /// Send a command, then answer with the status that shows its effect.
    case command(SessionCommand)

    /// Every request word, in the order help texts list them.
    public static let words: [String] = SessionCommand.allCases.map(\.rawValue) + ["status"]

    /// The word on the wire.
    public var word: String {
        switch self {
        case .status: "status"
        case .command(let command): command.rawValue
        }
    }

    /// Parses one request line (without its newline; surrounding blanks and a CR are ignored).
    public static func parse(_ bytes: [UInt8]) -> Result<ControlRequest, ControlProtocolError> {
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.notText) }
        let word = text.trimmingWhitespace()
        if word.isEmpty { return .failure(.empty) }
        if word == "status" { return .success(.status) }
        if let command = SessionCommand(rawValue: word) { return .success(.command(command)) }
        return .failure(.unknown(String(word.prefix(40))))
    }
}

/// Why a request line was not understood.
public enum ControlProtocolError: Error, Equatable, CustomStringConvertible {
    /// The bytes are not UTF-8.
    case notText
    /// A blank line.
    case empty
    /// A word that is no request (cut to 40 characters).
    case unknown(String)
    /// No newline within the limit.
    case tooLong(limit: Int)
    /// The client sent nothing within the read timeout.
    case noRequest(afterSeconds: Double)

    /// The text of the `error` field.
    public var description: String {
        switch self {
        case .notText: "the request is not UTF-8 text"
        case .empty: "empty request; expected one of: \(ControlRequest.words.joined(separator: ", "))"
        case .unknown(let word):
            "unknown request \"\(word)\"; expected one of: \(ControlRequest.words.joined(separator: ", "))"
        case .tooLong(let limit): "request longer than \(limit) bytes"
        case .noRequest(let seconds): "no request within \(seconds) s"
        }
    }
}

/// The server's one-line answer: `{"ok":true,"status":{…}}` or `{"ok":false,"error":"…"}`.
public enum ControlResponse: Equatable, Sendable {
    /// Done; the status after the command (nil when the session has not published one yet).
    case ok(SessionStatus?)
    /// Not done, and why.
    case failure(String)

    /// The JSON line (no newline). Written by hand so `ok` comes first, as the protocol shows it.
    public func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        switch self {
        case .ok(let status):
            let body = status.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "null"
            return "{\"ok\":true,\"status\":\(body)}"
        case .failure(let message):
            let quoted = (try? encoder.encode(message)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
            return "{\"ok\":false,\"error\":\(quoted)}"
        }
    }

    /// Reads an answer line; nil when it is not one.
    public static func decode(_ bytes: [UInt8]) -> ControlResponse? {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(bytes)) else { return nil }
        if wire.ok { return .ok(wire.status) }
        return .failure(wire.error ?? "the session refused the request without saying why")
    }

    private struct Wire: Decodable {
        var ok: Bool
        var status: SessionStatus?
        var error: String?
    }
}

/// When a status published after a command shows that command's effect, so the answer to
/// `pause` says PAUSED rather than the status of a moment before.
public enum ControlSettle {
    /// Whether `now` shows the effect of `command` sent while the session stood at `before`
    /// (called with `now == before` it says whether the command has nothing left to show).
    public static func isSettled(_ command: SessionCommand, before: SessionStatus?, now: SessionStatus) -> Bool {
        // Before the first status any status is news; a finished session changes no more.
        guard let before else { return true }
        if now.isFinished { return true }
        switch command {
        case .pause: return now.paused
        case .resume: return !now.paused
        case .toggle: return now.paused != before.paused
        case .skip: return now.phase?.index != before.phase?.index || now.stage != before.stage
        case .restart: return now.phase?.index != before.phase?.index || now.phaseElapsedSeconds < before.phaseElapsedSeconds
        case .stop: return false
        case .start: return now.stage != .waitingForFix && now.stage != .startCountdown
        }
    }
}
