/// The runner's settings file (`settings.conf` in the config folder): `key = value` lines,
/// `#` starts a comment. Command-line options override it.
///
/// ```
/// language = de
/// units = imperial
/// voice = speaker
/// duck = -12          # lower other audio by 12 dB while a cue speaks (off: leave it alone)
/// cue.split = off       # every cue kind: transition countdown halfway split summary gps pause_resume complete
///                       # target (coaching to a band) target_back ("Back on target.", off by default)
/// cue.summary = on
/// auto_pause = on       # standing still pauses the workout, moving resumes it
/// plan.done_fraction = 0.9   # share of a plan day's run time that makes it done
/// notify = off          # a notification at each phase change (run)
/// haptics = off         # feedbackd haptics (run)
/// music = ~/Music/run.m3u   # opened on the runner's music player at the start (run)
/// music.galloway-3-1 = ~/Music/intervals.m3u   # for one saved workout (over `music`)
/// hr = auto             # heart-rate strap: auto, off or its Bluetooth address (run)
/// hr.max = 188          # heart-rate zones from the reserve (max and resting) ...
/// hr.rest = 52
/// hr.lthr = 165         # ... or from a lactate threshold (over max and rest)
/// voice.hr = on         # say the heart rate with each split
/// countdown = 3         # seconds counted down before the first phase (run)
/// gps = gpsd://localhost:2947   # the GPS source when --gps is not given (run)
/// ```
public struct UserSettings: Sendable, Equatable {
    public var language: Language?
    public var units: Units?
    /// As `--voice` takes it: text, speaker, off or wav:FILE.
    public var voice: String?
    /// Cue kinds switched on or off; the others keep their default.
    public var cues: [CueKind: Bool] = [:]
    /// Standing still pauses the workout (`--auto-pause`).
    public var autoPause: Bool?
    /// How far other audio is lowered during cues (`--duck`).
    public var duck: DuckLevel?
    /// Share of a plan day's planned run time that makes it done (`plan.done_fraction`).
    public var planDoneFraction: Double?
    /// A notification at each phase change of a live run (`--notify`).
    public var notify: Bool?
    /// Haptic feedback through feedbackd in a live run (`--haptics`).
    public var haptics: Bool?
    /// A URI or file opened on the runner's music player at the start of a live run (`--music`).
    public var music: String?
    /// Per saved workout (by its lower-case name): what `music.NAME` opens instead of `music`.
    public var workoutMusic: [String: String] = [:]
    /// The heart-rate strap of a live run (`hr`, `--hr`).
    public var heartRateSensor: HeartRateSensorChoice?
    /// Maximum, resting and lactate-threshold heart rate for the zones, beats per minute.
    public var heartRateMax: Int?
    public var heartRateResting: Int?
    public var heartRateLactateThreshold: Int?
    /// Say the heart rate with each split (`voice.hr`).
    public var voiceHeartRate: Bool?
    /// Seconds counted down before the first phase (`countdown`, `--countdown`).
    public var countdownSeconds: Int?
    /// The GPS source as `--gps` spells it (`gps`): gpsd[://HOST:PORT], serial:DEVICE[@BAUD] or file:TRACK.
    public var gps: String?

    public init() {}

    /// The keys a settings file may hold.
    public static let keys = ["language", "units", "voice", "auto_pause"] + CueKind.allCases.map { "cue." + $0.rawValue }
        + ["plan.done_fraction", "notify", "haptics", "music", "duck", "hr", "hr.max", "hr.rest", "hr.lthr", "voice.hr", "countdown", "gps"]

    /// The cue kinds to say: the defaults, changed by `cue.KIND` settings.
    public var enabledCues: Set<CueKind> {
        var enabled = CueKind.defaultEnabled
        for (kind, on) in cues {
            if on { enabled.insert(kind) } else { enabled.remove(kind) }
        }
        return enabled
    }

    /// Reads settings from a file's text; the first mistake is thrown with its line and column.
    public init(parsing text: String) throws(ConfigFileError) {
        self.init()
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }).enumerated() {
            let line = offset + 1
            let content = rawLine.prefix { $0 != "#" }
            guard content.contains(where: { !$0.isWhitespace }) else { continue }
            guard let equals = content.firstIndex(of: "=") else {
                throw ConfigFileError(line: line, column: Self.column(of: content.firstIndex { !$0.isWhitespace }, in: rawLine),
                                message: "expected key = value")
            }
            let key = String(content[..<equals]).trimmingBlanks
            let value = String(content[content.index(after: equals)...]).trimmingBlanks
            let keyColumn = Self.column(of: content.firstIndex { !$0.isWhitespace }, in: rawLine)
            let afterEquals = content.index(after: equals)
            let valueColumn = Self.column(of: content[afterEquals...].firstIndex { !$0.isWhitespace } ?? afterEquals, in: rawLine)
            guard Self.keys.contains(key) || Self.isWorkoutMusicKey(key) else {
                throw ConfigFileError(line: line, column: keyColumn,
                                message: "unknown setting \"\(UserText.printable(key))\": expected one of \(Self.keys.joined(separator: ", "))")
            }
            guard !value.isEmpty else {
                throw ConfigFileError(line: line, column: valueColumn, message: "\(UserText.printable(key)) needs a value")
            }
            try set(key, to: value, line: line, column: valueColumn)
        }
    }

    private mutating func set(_ key: String, to value: String, line: Int, column: Int) throws(ConfigFileError) {
        func bad(_ expected: String) -> ConfigFileError {
            ConfigFileError(line: line, column: column, message: "\(UserText.printable(key)) = \(UserText.printable(value)): expected \(expected)")
        }
        switch key {
        case "language":
            guard let language = Language(rawValue: value) else { throw bad(Language.allCases.map(\.rawValue).joined(separator: " or ")) }
            self.language = language
        case "units":
            guard let units = Units(rawValue: value) else { throw bad(Units.allCases.map(\.rawValue).joined(separator: " or ")) }
            self.units = units
        case "voice":
            guard ["text", "speaker", "off"].contains(value) || (value.hasPrefix("wav:") && value.count > 4) else {
                throw bad("text, wav:FILE, speaker or off")
            }
            voice = value
        case "auto_pause":
            guard value == "on" || value == "off" else { throw bad("on or off") }
            autoPause = value == "on"
        case "hr":
            guard let choice = HeartRateSensorChoice(parsing: value) else { throw bad(HeartRateSensorChoice.expected) }
            heartRateSensor = choice
        case "hr.max", "hr.rest", "hr.lthr":
            guard let bpm = Int(value), HeartRateMeasurement.plausibleBPM.contains(bpm) else {
                throw bad("beats per minute from \(HeartRateMeasurement.plausibleBPM.lowerBound) to \(HeartRateMeasurement.plausibleBPM.upperBound)")
            }
            if key == "hr.max" { heartRateMax = bpm } else if key == "hr.rest" { heartRateResting = bpm } else { heartRateLactateThreshold = bpm }
            if let max = heartRateMax, let rest = heartRateResting, rest >= max {
                throw ConfigFileError(line: line, column: column, message: "hr.rest (\(rest)) must be below hr.max (\(max))")
            }
        case "voice.hr":
            guard value == "on" || value == "off" else { throw bad("on or off") }
            voiceHeartRate = value == "on"
        case "notify", "haptics":
            guard value == "on" || value == "off" else { throw bad("on or off") }
            if key == "notify" { notify = value == "on" } else { haptics = value == "on" }
        case "music":
            music = value
        case "countdown":
            guard let seconds = Int(value), (0...60).contains(seconds) else { throw bad("0 to 60 seconds") }
            countdownSeconds = seconds
        case "gps":
            // The full check (host, port, baud) is the GPS adapter's; this one keeps out what is no source at all.
            let kinds = ["gpsd://", "serial:", "file:"]
            guard value == "gpsd" || kinds.contains(where: { value.hasPrefix($0) && value.count > $0.count }) else {
                throw bad("gpsd, gpsd://HOST:PORT, serial:DEVICE[@BAUD] or file:TRACK")
            }
            gps = value
        case _ where Self.isWorkoutMusicKey(key):
            workoutMusic[String(key.dropFirst("music.".count)).lowercased()] = value
        case "duck":
            guard let level = DuckLevel.parse(value) else { throw bad(DuckLevel.expected) }
            duck = level
        case "plan.done_fraction":
            guard let fraction = Double(value), fraction > 0, fraction <= 1 else { throw bad("a number above 0 and at most 1") }
            planDoneFraction = fraction
        default:
            guard let kind = CueKind(rawValue: String(key.dropFirst(4))) else { throw bad("a cue kind") }
            switch value {
            case "on": cues[kind] = true
            case "off": cues[kind] = false
            default: throw bad("on or off")
            }
        }
    }

    /// `music.NAME`: music for the saved workout NAME.
    private static func isWorkoutMusicKey(_ key: String) -> Bool {
        key.hasPrefix("music.") && key.count > "music.".count
    }

    /// 1-based column of `index` in `line` (1 when there is none).
    private static func column(of index: Substring.Index?, in line: Substring) -> Int {
        guard let index else { return 1 }
        return line.distance(from: line.startIndex, to: index) + 1
    }
}
