import RunWalkCore

/// One entry of a settings choice: what the row shows, and what `settings.conf` gets.
public struct SettingChoice: Equatable, Sendable {
    /// The words on screen.
    public var label: String
    /// The value written after `key =`.
    public var value: String
    /// An entry showing `label` and writing `value`.
    public init(_ label: String, _ value: String) {
        self.label = label
        self.value = value
    }
}

/// What the settings page offers, and how a value in the file maps onto its controls (no GTK).
public enum SettingsPageModel {
    /// Voice cues.
    public static let voices = [SettingChoice("Speaker", "speaker"), SettingChoice("Text lines", "text"), SettingChoice("Off", "off")]
    /// Units.
    public static let units = [SettingChoice("Metric (km)", "metric"), SettingChoice("Imperial (mi)", "imperial")]
    /// Cue languages.
    public static let languages = [SettingChoice("English", "en"), SettingChoice("Deutsch", "de")]
    /// How far music is lowered while a cue speaks.
    public static let duckLevels = [SettingChoice("Off", "off"), SettingChoice("−6 dB", "-6"), SettingChoice("−12 dB", "-12"),
                                    SettingChoice("−18 dB", "-18"), SettingChoice("−24 dB", "-24")]
    /// Where fixes come from.
    public static let gpsKinds = [SettingChoice("gpsd", "gpsd"), SettingChoice("Serial receiver", "serial"), SettingChoice("Track file", "file")]

    /// The choices with the file's value among them (a value the list lacks, such as `wav:FILE`
    /// or `-9`, is added as it is, so showing the page never changes it), and the index to select.
    /// `same` compares values the way the setting reads them (`-12dB` is `-12`).
    public static func choices(_ base: [SettingChoice], current: String?, standard: String,
                               same: (String, String) -> Bool = { $0 == $1 }) -> (choices: [SettingChoice], selected: Int) {
        let value = current ?? standard
        if let index = base.firstIndex(where: { same($0.value, value) }) { return (base, index) }
        return (base + [SettingChoice(value, value)], base.count)
    }

    /// Duck levels compare as levels.
    public static func sameDuck(_ a: String, _ b: String) -> Bool {
        DuckLevel.parse(a) == DuckLevel.parse(b)
    }

    /// The GPS setting in parts, for the source rows.
    public struct GPS: Equatable, Sendable {
        /// `gpsd`, `serial` or `file`.
        public var kind: String
        /// `HOST:PORT` of gpsd.
        public var gpsdAddress = "localhost:2947"
        /// The serial device and its baud rate.
        public var serialDevice = ""
        public var baud: Int?
        /// The track file.
        public var file = ""

        /// The parts of `spec` as `--gps` spells it.
        public init(spec: String) {
            if spec.hasPrefix("serial:") {
                kind = "serial"
                let rest = spec.dropFirst("serial:".count)
                if let at = rest.lastIndex(of: "@"), let number = Int(rest[rest.index(after: at)...]) {
                    serialDevice = String(rest[..<at])
                    baud = number
                } else {
                    serialDevice = String(rest)
                }
            } else if spec.hasPrefix("file:") {
                kind = "file"
                file = String(spec.dropFirst("file:".count))
            } else {
                kind = "gpsd"
                if spec.hasPrefix("gpsd://") { gpsdAddress = String(spec.dropFirst("gpsd://".count)) }
            }
        }

        /// The spec for the chosen kind, nil when its field is empty.
        public var spec: String? {
            switch kind {
            case "serial": return serialDevice.isEmpty ? nil : "serial:" + serialDevice + (baud.map { "@\($0)" } ?? "")
            case "file": return file.isEmpty ? nil : "file:" + file
            default:
                let address = gpsdAddress.filter { $0 != " " && $0 != "\t" }
                return address.isEmpty || address == "localhost:2947" ? "gpsd" : "gpsd://" + address
            }
        }
    }

    /// The heart-rate strap choices: off, the first found, the file's address and the straps a
    /// scan found (name, address and battery where known).
    public static func heartRateChoices(current: String?, found: [(name: String?, address: String, batteryPercent: Int?)])
        -> (choices: [SettingChoice], selected: Int) {
        var choices = [SettingChoice("Off", "off"), SettingChoice("The first strap found", "auto")]
        for strap in found where !choices.contains(where: { $0.value == strap.address }) {
            let battery = strap.batteryPercent.map { " · \($0) %" } ?? ""
            choices.append(SettingChoice("\(strap.name ?? "Strap") · \(strap.address)\(battery)", strap.address))
        }
        let value = (current.flatMap(HeartRateSensorChoice.init(parsing:)) ?? .off).description
        if let index = choices.firstIndex(where: { $0.value == value }) { return (choices, index) }
        return (choices + [SettingChoice(value, value)], choices.count)
    }

    /// The plan's done fraction as a percentage for the spin button, and back.
    public static func percent(_ fraction: Double?) -> Int {
        Int(((fraction ?? RunCompletion.defaultDoneFraction) * 100).rounded())
    }

    /// `0.85` for 85 %.
    public static func fraction(_ percent: Int) -> String {
        let value = Double(min(100, max(1, percent))) / 100
        return value == 1 ? "1" : String(value)
    }
}
