import Foundation
import RunWalkGPS
import Testing

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

    /// Like `run`, through the source's direct path (`start(sink:)`, as the session loop reads
    /// it): each event is collected on the source's own thread, so a full test run's busy
    /// cooperative pool cannot hold events back from a test thread that waits for them (a
    /// serial test's writer thread once waited 90 s for a connection the source had made at
    /// once). Collects nothing after `done` or the time is up; stops the source then.
    func runOnSourceThread(_ source: any LocationSource, seconds: Double,
                           until done: @escaping @Sendable ([LocationEvent]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finish = FinishOnce(continuation)
            let stop = source.start { event in
                guard let event else { return finish.finish() }
                let all = self.lock.withLock { () -> [LocationEvent]? in
                    guard !finish.isFinished else { return nil }
                    self.collected.append(event)
                    return self.collected
                }
                if let all, done(all) { finish.finish() }
            }
            guard let stop else {
                Issue.record("\(source.description) has no direct path")
                return finish.finish()
            }
            finish.setStop(stop)
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { finish.finish() }
        }
    }
}

/// Ends `runOnSourceThread` once, whoever comes first: the source's end, `done`, the deadline.
private final class FinishOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = false
    private var stop: (@Sendable () -> Void)?
    private let continuation: CheckedContinuation<Void, Never>

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    var isFinished: Bool { lock.withLock { finished } }

    /// What stops the source; called at once when it has finished already.
    func setStop(_ stop: @escaping @Sendable () -> Void) {
        let late = lock.withLock { () -> Bool in
            if finished { return true }
            self.stop = stop
            return false
        }
        if late { stop() }
    }

    func finish() {
        let (first, stop) = lock.withLock { () -> (Bool, (@Sendable () -> Void)?) in
            guard !finished else { return (false, nil) }
            finished = true
            return (true, self.stop)
        }
        guard first else { return }
        stop?()
        continuation.resume()
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
