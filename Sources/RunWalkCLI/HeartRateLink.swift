import ArgumentParser
import FoundationEssentials
import RunWalkCore
import RunWalkDesktop
import RunWalkRuntime

/// `--hr` for `run`: a BLE heart-rate strap through BlueZ, its inputs handed to the session.
struct HeartRateArguments: ParsableArguments {
    @Option(name: .customLong("hr"), help: "Heart rate from a Bluetooth LE strap: auto (the first one found), its ADDRESS, or off (default: settings.conf's hr, else off).")
    var choice: String?

    func validate() throws {
        if let choice, HeartRateSensorChoice(parsing: choice) == nil {
            throw ValidationError("--hr \(choice): expected \(HeartRateSensorChoice.expected)")
        }
    }

    /// `--hr` over `hr =` in the settings, else off.
    func resolved(_ settings: UserSettings) -> HeartRateSensorChoice {
        choice.flatMap(HeartRateSensorChoice.init(parsing:)) ?? settings.heartRateSensor ?? .off
    }
}

/// `runwalk sensors scan`: nearby heart-rate straps.
struct SensorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensors", abstract: "Bluetooth LE heart-rate straps (BlueZ).", subcommands: [Scan.self])

    struct Scan: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List nearby heart-rate straps: name, address, battery (for --hr ADDRESS or hr = in settings.conf).")

        @Option(name: .long, help: "Seconds to look for straps.")
        var seconds: Double = 5

        func validate() throws {
            guard seconds >= 0, seconds <= 120 else { throw ValidationError("--seconds must be 0 to 120, not \(seconds)") }
        }

        func run() throws {
            switch HeartRateStrap.scan(seconds: seconds) {
            case .failure(let error):
                throw UserFacingError.runtime("sensors scan: \(error.description)")
            case .success(let straps):
                guard !straps.isEmpty else {
                    Terminal.out("No heart-rate strap found (wear it: most straps only advertise with skin contact).")
                    return
                }
                Terminal.out(HistoryText.row(["name", "address", "battery", "signal"], [-24, -17, 7, 8]))
                for strap in straps {
                    Terminal.out(HistoryText.row([HistoryText.shorten(strap.name ?? "-", 24), strap.address,
                                                  strap.batteryPercent.map { "\($0) %" } ?? "-",
                                                  strap.rssi.map { "\($0) dBm" } ?? "-"], [-24, -17, 7, 8]))
                }
            }
        }
    }
}
