import Foundation
import Testing
import RunWalkCore
import RunWalkGPS
import RunWalkRuntime
import RunWalkTestSupport

/// gpsd running with no receiver: the source says so (once), says when one is attached and when
/// it goes away, against a real gpsd whose receivers the test adds and removes over its control
/// socket, as `gpsdctl` and udev's hotplug rule do.
@Suite("GPSDSource with a gpsd that has no receiver (real gpsd)", .serialized,
       .enabled(if: GPSDHarness.isInstalled, "gpsd/gpsfake not installed (scripts/bootstrap installs gpsd and gpsd-clients)"))
struct GPSDNoReceiverTests {
    /// The events other than fixes, as short words, in order.
    static func story(_ events: [LocationEvent]) -> [String] {
        events.compactMap { event in
            switch event {
            case .fix: return nil
            case .connected(let text): return text.contains("attached") ? "attached" : "connected"
            case .unavailable(let text):
                if text.contains("lost its receiver") { return "receiver gone" }
                return text.contains("has no receiver") ? "no receiver" : "unavailable: \(text)"
            case .problem(let text): return "problem: \(text ?? "none")"
            case .warning(let text): return "warning: \(text)"
            case .badLines: return nil
            case .ended: return "ended"
            }
        }
    }

    @Test("no receiver: said once with what to do; a receiver attached: said, and its fixes arrive; removed: said again")
    func noReceiverThenOne() async throws {
        let port = FreePort.loopback(), udp = FreePort.loopback(udp: true)
        let controlSocket = FileManager.default.temporaryDirectory.appendingPathComponent("rw-gpsd-\(getpid())-\(port).sock").path
        let daemon = try GPSDHarness.startDevicelessDaemon(port: port, controlSocket: controlSocket)
        defer {
            daemon.stop()
            try? FileManager.default.removeItem(atPath: controlSocket)
        }
        // As many epochs as it takes: on a loaded machine gpsd may merge or miss some sent 20 ms apart.
        let epochs = try Array(NMEAEpochs.load(Repository.sampleTrack("track-loop.nmea")).prefix(600))
        let device = "udp://127.0.0.1:\(udp)"
        let collector = SourceCollector()
        let feeder = UDPFeeder(port: udp)
        defer { feeder.close() }
        let answers = AnswerBox()
        let driving = Task.detached {
            // Wait until the source has said there is no receiver, then plug one in.
            while !Task.isCancelled, !Self.story(collector.events).contains("no receiver") { try? await Task.sleep(for: .milliseconds(10)) }
            guard !Task.isCancelled else { return }
            answers.add(try? GPSDHarness.control("+\(device)", socket: controlSocket))
            while !Task.isCancelled, !Self.story(collector.events).contains("attached") { try? await Task.sleep(for: .milliseconds(10)) }
            for epoch in epochs where collector.fixes.count < 5 && !Task.isCancelled {
                epoch.forEach(feeder.send)
                try? await Task.sleep(for: .milliseconds(20))
            }
            guard !Task.isCancelled else { return }
            // Unplugged.
            answers.add(try? GPSDHarness.control("-\(device)", socket: controlSocket))
        }
        await collector.run(GPSDSource(host: "127.0.0.1", port: String(port)), seconds: 90) { events in
            Self.story(events).contains("receiver gone")
        }
        // gpsd can tell the source that the receiver is gone before the unplugging task has read
        // its control socket's answer (a loaded machine made this test see one "OK"): that task
        // is let finish; one that never got so far is stopped.
        if !Self.story(collector.events).contains("receiver gone") { driving.cancel() }
        await driving.value
        #expect(answers.all == ["OK", "OK"], "gpsd's control socket answered \(answers.all)")
        #expect(Self.story(collector.events) == ["connected", "problem: gpsd has no receiver", "no receiver",
                                                "problem: none", "attached", "problem: gpsd has no receiver", "receiver gone"],
                "\(collector.events.filter { if case .fix = $0 { false } else { true } })")
        let advice = collector.events.compactMap { if case .unavailable(let text) = $0 { text } else { nil } }.first ?? ""
        #expect(advice.hasPrefix("gpsd at 127.0.0.1:\(port) is running but has no receiver: "), "\(advice)")
        #expect(advice.contains("gpsdctl add /dev/ttyACM0"), "says what to do: \(advice)")
        let attached = collector.events.compactMap { if case .connected(let text) = $0, text.contains("attached") { text } else { nil } }
        #expect(attached == ["gpsd at 127.0.0.1:\(port): receiver \(device) attached"])
        #expect(collector.fixes.count >= 5, "fixes arrive once a receiver is attached")
    }

    @Test("a gpsd with a receiver says nothing more than that it is connected")
    func withReceiver() async throws {
        let port = FreePort.loopback(), udp = FreePort.loopback(udp: true)
        let daemon = try GPSDHarness.startUDPDaemon(port: port, udpPort: udp)
        defer { daemon.stop() }
        let epochs = try Array(NMEAEpochs.load(Repository.sampleTrack("track-loop.nmea")).prefix(600))
        let collector = SourceCollector()
        let feeder = UDPFeeder(port: udp)
        defer { feeder.close() }
        let feeding = Task.detached {
            while !collector.hasConnected { try? await Task.sleep(for: .milliseconds(10)) }
            for epoch in epochs where collector.fixes.isEmpty {
                epoch.forEach(feeder.send)
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        // gpsd's DEVICES report comes before any fix: once a fix is in, it has been read.
        await collector.run(GPSDSource(host: "127.0.0.1", port: String(port)), seconds: 60) { events in
            events.contains { if case .fix = $0 { true } else { false } }
        }
        feeding.cancel()
        #expect(!collector.fixes.isEmpty)
        #expect(Self.story(collector.events) == ["connected"])
    }
}

/// Answers collected on another task.
final class AnswerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String] = []

    func add(_ answer: String?) { lock.withLock { answers.append(answer ?? "(no answer)") } }
    var all: [String] { lock.withLock { answers } }
}
