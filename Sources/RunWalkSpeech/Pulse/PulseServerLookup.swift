import FoundationEssentials
import RunWalkIO

/// Whether libpulse could find any server at all, decided before libpulse is loaded.
///
/// `runwalk run` speaks through the speaker by default, so on a headless device with no sound
/// server the speaker fails on every run; loading libpulse only to hear "connection refused"
/// keeps it and its dozen libraries mapped (about 2 MB resident) for the whole run (issue 18).
/// This follows libpulse's own search for a default server (16.1: `$PULSE_SERVER`, client.conf's
/// `default-server`, the X11 root window, the per-user and system sockets) and answers "none"
/// only when every one of them is certainly absent; anything it does not know loads libpulse.
struct PulseServerLookup {
    /// The process environment.
    var environment: [String: String]
    /// Whether something exists at a path (a socket, a file, a folder).
    var exists: (String) -> Bool
    /// The contents of a text file, nil when unreadable.
    var contents: (String) -> String?
    /// The names in a folder (empty when it is not there).
    var names: (String) -> [String]

    /// The running process's view.
    static var live: PulseServerLookup {
        PulseServerLookup(environment: ProcessInfo.processInfo.environment,
                          exists: { FileManager.default.fileExists(atPath: $0) },
                          contents: { try? String(contentsOfFile: $0, encoding: .utf8) },
                          names: { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] })
    }

    /// Why no default server can exist (a reason for the user), or nil when one may.
    func noServerReason() -> String? {
        func set(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        // Named servers, client.conf files chosen by hand and X11 root-window properties: libpulse's business.
        if set("PULSE_SERVER") != nil || set("PULSE_CLIENTCONFIG") != nil || set("DISPLAY") != nil { return nil }
        let home = set("HOME") ?? ""
        let config = set("XDG_CONFIG_HOME") ?? "\(home)/.config"
        let confFolder = "/etc/pulse/client.conf.d"
        let confFiles = ["/etc/pulse/client.conf", "\(config)/pulse/client.conf", "\(home)/.pulse/client.conf"]
            + names(confFolder).filter { $0.hasSuffix(".conf") }.map { "\(confFolder)/\($0)" }
        if confFiles.contains(where: { contents($0).map(Self.pointsAtServer) ?? false }) { return nil }
        var sockets = ["/var/run/pulse/native", "/run/pulse/native"]
        if let runtime = set("PULSE_RUNTIME_PATH") {
            sockets.append("\(runtime)/native")
        } else if let runtime = set("XDG_RUNTIME_DIR") {
            sockets.append("\(runtime)/pulse/native")
        } else if names("\(config)/pulse").contains(where: { $0.hasSuffix("-runtime") }) {
            // Without XDG_RUNTIME_DIR libpulse keeps its socket behind a link in the config folder.
            return nil
        }
        if sockets.contains(where: exists) { return nil }
        return "no server socket at \(sockets.last ?? "") or \(sockets[0])"
    }

    /// Whether a client.conf names a server or lets libpulse try the network or the display.
    static func pointsAtServer(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { line in
            let line = line.trimmingWhitespace()
            guard !line.hasPrefix(";"), !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { return false }
            let key = line[..<equals].trimmingWhitespace()
            let value = line[line.index(after: equals)...].trimmingWhitespace().lowercased()
            switch key {
            case "default-server": return !value.isEmpty
            case "auto-connect-localhost", "auto-connect-display": return ["yes", "true", "on", "1"].contains(value)
            default: return false
            }
        }
    }
}
