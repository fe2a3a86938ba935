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

/// The strap of a live run: connects, feeds the session, says what happens to it once.
enum HeartRateLink {
    /// Starts following the strap (nil for `off`, or without a system bus: said once).
    static func start(_ choice: HeartRateSensorChoice, control: SessionControl, say: @escaping @Sendable (String) -> Void) -> HeartRateStrap? {
        guard choice != .off else { return nil }
        let malformed = MalformedCount()
        let started = HeartRateStrap.start(choice) { event in
            switch event {
            case .connected(let info):
                var line = "runwalk: heart rate: \(info.name ?? "strap") (\(info.address)) connected"
                if let battery = info.batteryPercent { line += ", battery \(battery) %" }
                say(line)
                control.send(heartRate: .connected)
            case .measurement(let measurement):
                control.send(heartRate: .measurement(measurement))
            case .malformed(let text):
                if malformed.first() { say("runwalk: heart rate: \(text); such notifications count as no heart rate") }
            case .several(let chosen, let others):
                say("runwalk: heart rate: \(others.count + 1) straps nearby; using \(chosen), not \(others.joined(separator: ", ")) (--hr ADDRESS picks one)")
            case .lost(let reason):
                say("runwalk: heart rate lost (\(reason)); the workout goes on, retrying")
                control.send(heartRate: .lost(reason: reason))
            }
        }
        switch started {
        case .success(let strap):
            say("runwalk: heart rate: looking for \(choice == .auto ? "a strap" : choice.description)")
            return strap
        case .failure(let error):
            say("runwalk: heart rate: \(error.description); the workout goes on without it")
            return nil
        }
    }

    /// Says the first malformed notification only.
    private final class MalformedCount: @unchecked Sendable {
        private let lock = Lock()
        private var seen = false
        func first() -> Bool { lock.withLock { defer { seen = true }; return !seen } }
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
