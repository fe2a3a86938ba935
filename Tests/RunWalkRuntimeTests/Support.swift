import Foundation
import RunWalkCore
import RunWalkRuntime

/// Fixes for a runner on a straight line north, one per `interval` seconds, at the speed `speed(t)`.
enum SyntheticTrack {
    static let start: Int64 = 1_776_000_000_000

    static func fixes(seconds: Int, interval: Double = 1, speed: (Double) -> Double) -> [Fix] {
        var fixes: [Fix] = []
        var north = 0.0
        var t = 0.0
        while t <= Double(seconds) {
            let v = speed(t)
            var fix = Fix(time: UTCTime(milliseconds: start + Int64((t * 1000).rounded())))
            fix.latitude = 47 + north / 111_195
            fix.longitude = 8
            fix.mode = .threeD
            fix.quality = 1
            fix.hdop = 0.8
            fix.satellitesUsed = 9
            fix.speedMetresPerSecond = v
            fix.courseDegrees = 0
            fixes.append(fix)
            north += v * interval
            t += interval
        }
        return fixes
    }

    static var sample: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleTracks").path
    }
}

/// A location source that yields the given events, one per `pull`, as a test asks.
final class ScriptedSource: LocationSource, @unchecked Sendable {
    let description = "scripted source"
    private let stream: AsyncStream<LocationEvent>
    private let continuation: AsyncStream<LocationEvent>.Continuation

    init() {
        (stream, continuation) = AsyncStream<LocationEvent>.makeStream()
    }

    func events() -> AsyncStream<LocationEvent> { stream }

    func send(_ event: LocationEvent) { continuation.yield(event) }
    func end() { continuation.yield(.ended); continuation.finish() }
}

/// Waits until `condition` holds, up to a bound that fails the test instead of hanging: yielding
/// first (the loop's tasks), then looking again every millisecond for up to 30 s of real time
/// (the loop's timer is a thread of its own, on a manual clock too, and a loaded machine may
/// take a while to run it).
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1_000 {
        if condition() { return true }
        await Task.yield()
    }
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
