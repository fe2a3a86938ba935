import RunWalkRuntime

/// `runwalk-app`'s command line: `[--gps SPEC] [--speed N] [--workout SPEC|NAME] [--voice on|off]
/// [--color-scheme system|light|dark] [--window-size WxH]`.
public struct AppOptions: Equatable, Sendable {
    /// The colour scheme: the system's (default), or forced (screenshots, tests).
    public enum ColorScheme: String, Equatable, Sendable { case system, light, dark }

    /// The GPS source as `runwalk run --gps` spells it.
    public var gps = "gpsd"
    /// Clock (and file track) speed-up; nil is real time.
    public var speed: Double?
    /// A workout to start at once (the live page opens), or nil for the start page.
    public var workout: String?
    /// Voice cues through the speaker.
    public var voice = true
    /// Light, dark, or the system's style.
    public var colorScheme = ColorScheme.system
    /// The window's size at start, nil for the app's default.
    public var windowSize: WindowSize?

    /// A window size in pixels.
    public struct WindowSize: Equatable, Sendable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// A size of `width` × `height` pixels.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// An option that could not be read: one line naming it (exit 2).
    public struct Problem: Error, Equatable, CustomStringConvertible {
        /// The line to print.
        public var description: String
        /// A problem told by `description`.
        public init(description: String) { self.description = description }
    }

    /// The usage text for `--help`.
    public static let usage = """
        usage: runwalk-app [--gps gpsd[://HOST:PORT]|serial:DEVICE[@BAUD]|file:TRACK] [--speed N]
                           [--workout SPEC|NAME] [--voice on|off] [--color-scheme system|light|dark]
                           [--window-size WIDTHxHEIGHT]
        With --workout the session starts at once (the live page); without it the start page opens.
        """

    /// The defaults: gpsd, real time, the start page, voice on, the system's style.
    public init() {}

    /// Reads the arguments (without the program name). GTK's own options are not taken.
    public init(arguments: [String]) throws(Problem) {
        var rest = arguments[...]
        func value(_ name: String) throws(Problem) -> String {
            guard let v = rest.popFirst(), !v.hasPrefix("--") else { throw Problem(description: "runwalk-app: \(name) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            var name = argument
            if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<eq])
                rest.insert(contentsOf: [String(argument[argument.index(after: eq)...])], at: rest.startIndex)
            }
            switch name {
            case "--gps": gps = try value(name)
            case "--speed":
                let text = try value(name)
                if let problem = ClockSpeed.problem(text) { throw Problem(description: "runwalk-app: \(problem)") }
                speed = Double(text)
            case "--workout": workout = try value(name)
            case "--voice":
                let text = try value(name)
                guard text == "on" || text == "off" else { throw Problem(description: "runwalk-app: --voice must be on or off, not \(text)") }
                voice = text == "on"
            case "--color-scheme":
                let text = try value(name)
                guard let scheme = ColorScheme(rawValue: text) else { throw Problem(description: "runwalk-app: --color-scheme must be system, light or dark, not \(text)") }
                colorScheme = scheme
            case "--window-size":
                let text = try value(name)
                let parts = text.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, parts.allSatisfy({ (100...10000).contains($0) }) else {
                    throw Problem(description: "runwalk-app: --window-size must be WIDTHxHEIGHT in pixels (100 to 10000), not \(text)")
                }
                windowSize = WindowSize(width: parts[0], height: parts[1])
            default:
                throw Problem(description: "runwalk-app: unknown option \(argument) (see runwalk-app --help)")
            }
        }
    }
}
