/// Which heart-rate strap a live run uses (`--hr`, `hr =` in the settings).
public enum HeartRateSensorChoice: Sendable, Equatable, CustomStringConvertible {
    /// The first strap offering the Heart Rate service.
    case auto
    /// The strap with this Bluetooth address (upper case, `XX:XX:XX:XX:XX:XX`).
    case address(String)
    case off

    /// What the option takes, for error messages.
    public static let expected = "auto, off or a Bluetooth address like C0:FF:EE:00:12:34"

    /// `auto`, `off` or an address; nil for anything else.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "auto": self = .auto
        case "off": self = .off
        default:
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
            self = .address(text.uppercased())
        }
    }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .off: return "off"
        case .address(let address): return address
        }
    }
}
