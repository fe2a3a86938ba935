import RunWalkCore

/// A command given ahead for a moment of the session: `pause@5:00` (for `replay --control`),
/// so that a paused or skipped session can be reproduced.
public struct ScriptedCommand: Sendable, Equatable {
    public var command: SessionCommand
    /// Seconds since the workout's start, pauses included (the track's clock in replay).
    public var atSeconds: Double

    public init(_ command: SessionCommand, atSeconds: Double) {
        self.command = command
        self.atSeconds = atSeconds
    }

    /// What was wrong with a `--control` list.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var item: String
        public var reason: String
        public var description: String { "--control \"\(item)\": \(reason)" }
    }

    /// Parses `"pause@5:00,resume@6:30,skip@12:00"` (times `SS`, `M:SS`, `H:MM:SS`, or with
    /// `s`/`m`); the commands come back in time order.
    public static func parseList(_ text: String) throws(ParseError) -> [ScriptedCommand] {
        var commands: [ScriptedCommand] = []
        let items = text.split(separator: ",")
        guard items.count <= maximumCommands else {
            throw ParseError(item: "\(UserText.printable(String(text.prefix(40))))…", reason: "\(items.count) commands, more than \(maximumCommands)")
        }
        for raw in items {
            let item = raw.trimmingSpaces
            let parts = item.split(separator: "@", maxSplits: 1).map { $0.trimmingSpaces }
            guard parts.count == 2 else { throw ParseError(item: item, reason: "expected COMMAND@TIME, as in pause@5:00") }
            guard let command = SessionCommand(rawValue: parts[0]) else {
                let names = SessionCommand.allCases.map(\.rawValue).joined(separator: ", ")
                throw ParseError(item: item, reason: "unknown command \"\(parts[0])\": expected one of \(names)")
            }
            guard let seconds = parseTime(parts[1]) else {
                throw ParseError(item: item, reason: "bad time \"\(parts[1])\": expected SS, M:SS or H:MM:SS")
            }
            guard seconds <= maximumSeconds else {
                throw ParseError(item: item, reason: "time \"\(parts[1])\" is past 100:00:00, the longest session")
            }
            commands.append(ScriptedCommand(command, atSeconds: seconds))
        }
        // A stable sort: commands at the same moment keep their order.
        return commands.enumerated().sorted { ($0.element.atSeconds, $0.offset) < ($1.element.atSeconds, $1.offset) }.map(\.element)
    }

    /// The most commands a list holds.
    public static let maximumCommands = 1000
    /// The latest moment a command is given for: 100 hours, beyond any session (and any clock's range).
    public static let maximumSeconds = 360_000.0

    private static func parseTime(_ text: String) -> Double? {
        if text.hasSuffix("s"), let v = Double(text.dropLast()), v >= 0 { return v }
        if text.hasSuffix("m"), let v = Double(text.dropLast()), v >= 0 { return v * 60 }
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var total = 0.0
        for (i, field) in fields.enumerated() {
            guard let v = Double(field), v >= 0, i == 0 || v < 60 else { return nil }
            total = total * 60 + v
        }
        return total
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
