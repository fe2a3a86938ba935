import FoundationEssentials
import RunWalkCore
import RunWalkDesktop
import RunWalkRuntime

/// The strap of a live run (`runwalk run --hr`, the app with `hr =` in settings.conf): connects,
/// feeds the session, says what happens to it once.
public enum HeartRateLink {
    /// Starts following the strap (nil for `off`, or without a system bus: said once).
    public static func start(_ choice: HeartRateSensorChoice, control: SessionControl, say: @escaping @Sendable (String) -> Void) -> HeartRateStrap? {
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

