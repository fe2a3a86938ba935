import Foundation
import RunWalkAppModel
import RunWalkGPS
import RunWalkRuntime

/// Reads the chosen GPS source while the start page shows, so the runner sees its state
/// (no fix / fix, satellites, accuracy) before starting. Stopped before a session opens the
/// source (a serial device has one reader).
@MainActor
final class GPSProbe {
    private var task: Task<Void, Never>?

    /// Starts reading `gps` (as `--gps` spells it); every new line goes to `onLine` on the main thread.
    func start(_ gps: String, onLine: @escaping @Sendable @MainActor (String) -> Void) {
        stop()
        let spec: GPSSourceSpec
        do { spec = try GPSSourceSpec(parsing: gps) } catch {
            onLine(error.description)
            return
        }
        if case .file(let path) = spec, !FileManager.default.fileExists(atPath: path) {
            onLine("\(path): no such file")
            return
        }
        // A file is read in real time, as a receiver would deliver it.
        let source = spec.makeSource(speed: 1)
        onLine(GPSProbeModel(source: source.description).line)
        task = Task.detached {
            var model = GPSProbeModel(source: source.description)
            for await event in source.events() {
                if Task.isCancelled { break }
                let before = model.line
                model.handle(event)
                let line = model.line
                if line != before { MainLoop.post { onLine(line) } }
            }
        }
    }

    /// Stops reading (ending the iteration closes the source).
    func stop() {
        task?.cancel()
        task = nil
    }
}
