import Foundation
import RunWalkGPS

/// Collects a source's events until `done` says so or `seconds` pass, then stops the source.
final class SourceCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [LocationEvent] = []

    var events: [LocationEvent] { lock.withLock { collected } }

    var fixes: [RunWalkCore.Fix] {
        events.compactMap { if case .fix(let fix) = $0 { return fix } else { return nil } }
    }

    var hasConnected: Bool {
        events.contains { if case .connected = $0 { return true } else { return false } }
    }

    func run(_ source: any LocationSource, seconds: Double, until done: @escaping @Sendable ([LocationEvent]) -> Bool) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in source.events() {
                    let all = self.lock.withLock { () -> [LocationEvent] in
                        self.collected.append(event)
                        return self.collected
                    }
                    if done(all) { return }
                }
            }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            await group.next()
            group.cancelAll()
        }
    }
}

import RunWalkCore
import RunWalkRuntime
import RunWalkIO

/// The fixes replay would see for a file.
func fileFixes(_ path: String) throws -> [Fix] {
    var reader = NMEAFileReader(path: path)
    var fixes: [Fix] = []
    try reader.read { fixes.append($0) }
    return fixes
}
