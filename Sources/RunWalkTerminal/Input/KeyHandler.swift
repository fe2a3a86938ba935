import RunWalkRuntime

/// Turns the bytes a runner types into session commands: space or p pause/resume, n skip,
/// b restart, s start (while waiting), q q stop, ? help; m and > go to the runner's music
/// player (`takeMusicKeys`). Pure: bytes in, commands out.
///
/// A first `q` only asks ("press q again to stop"); any other key then cancels. The help overlay
/// closes on any key, and that key does nothing else. An escape sequence (an arrow key) counts as
/// one key, even when it arrives split over two reads.
public struct KeyHandler: Sendable, Equatable {
    /// A key for the runner's own music player, not for the session.
    public enum MusicKey: Sendable, Equatable { case playPause, next }

    /// Music keys pressed since the last `takeMusicKeys()`.
    private var music: [MusicKey] = []

    /// What the screen shows over the status because of the keys so far.
    public private(set) var overlay: TerminalOverlay = .none
    /// Inside an escape sequence: 1 after ESC, 2 after its `[` or `O`.
    private var escape = 0

    /// A handler with no overlay, outside any escape sequence.
    public init() {}

    /// Handles `bytes` typed while the session is at `stage`; returns the commands to send, in order.
    public mutating func handle(_ bytes: some Sequence<UInt8>, stage: SessionStatus.Stage?) -> [SessionCommand] {
        var commands: [SessionCommand] = []
        for byte in bytes {
            if let command = key(byte, stage: stage) { commands.append(command) }
        }
        return commands
    }

    /// The music keys pressed since the last call, in order.
    public mutating func takeMusicKeys() -> [MusicKey] {
        defer { music = [] }
        return music
    }

    private mutating func key(_ byte: UInt8, stage: SessionStatus.Stage?) -> SessionCommand? {
        switch escape {
        case 1:
            // ESC then `[` or `O` opens a sequence; anything else was a lone ESC plus this key.
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") { escape = 2; return nil }
            escape = 0
        case 2:
            // Parameters and intermediates run until a final byte in 0x40…0x7E.
            if (0x40...0x7E).contains(byte) { escape = 0 }
            return nil
        default:
            break
        }
        if byte == 0x1B {
            escape = 1
            return pressed(nil, stage: stage)
        }
        return pressed(byte, stage: stage)
    }

    /// One key (nil: a key that means nothing here, such as an arrow).
    private mutating func pressed(_ byte: UInt8?, stage: SessionStatus.Stage?) -> SessionCommand? {
        switch overlay {
        case .help:
            overlay = .none
            return nil
        case .confirmStop:
            overlay = .none
            return byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") ? .stop : nil
        case .none:
            break
        }
        guard let byte else { return nil }
        switch Character(Unicode.Scalar(byte)) {
        case " ", "p", "P": return stage == .running || stage == .paused ? .toggle : nil
        case "n", "N": return .skip
        case "b", "B": return .restart
        case "s", "S": return stage == .waitingForFix || stage == .startCountdown ? .start : nil
        case "q", "Q":
            overlay = .confirmStop
            return nil
        case "?", "h", "H":
            overlay = .help
            return nil
        case "m", "M":
            music.append(.playPause)
            return nil
        case ">":
            music.append(.next)
            return nil
        default:
            return nil
        }
    }
}
